/** The toolsets of DESIGN.md's catalog; `MACPILOT_TOOLSETS` / `--toolsets` pick among them. */
export const TOOLSETS = [
  'ui',
  'input',
  'apps',
  'windows',
  'screen',
  'clipboard',
  'menus',
  'system',
  'finder',
  'scripting',
  'session',
] as const;
export type Toolset = (typeof TOOLSETS)[number];

export const DEFAULT_TOOLSETS: readonly Toolset[] = [
  'ui',
  'input',
  'apps',
  'windows',
  'screen',
  'clipboard',
  'menus',
];
/** Always on, whatever is selected: an agent can always ask what it may do. */
export const ALWAYS_ON: readonly Toolset[] = ['session'];

export function isToolset(value: string): value is Toolset {
  return (TOOLSETS as readonly string[]).includes(value);
}
