/** MACPILOT_MODE: how much an agent may do, from full to read-only. */
export const MODES = ['full', 'safe', 'read-only'] as const;
export type Mode = (typeof MODES)[number];

const PERMISSIVENESS: Record<Mode, number> = { 'read-only': 0, safe: 1, full: 2 };

/** Whether `mode` allows at least what `lowest` does. */
export const modeAllows = (mode: Mode, lowest: Mode): boolean =>
  PERMISSIVENESS[mode] >= PERMISSIVENESS[lowest];
