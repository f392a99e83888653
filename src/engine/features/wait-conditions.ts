/**
 * What wait_for waits for and its time limits: a leaf the tools and the CLI's command table read without loading
 * the engine (`macpilot --help` stays as fast as Node).
 */
export const WAIT_CONDITIONS = [
  'appears',
  'disappears',
  'value_equals',
  'value_contains',
  'text_appears',
  'enabled',
  'focused',
  'window_title',
  'app_idle',
] as const;
export type WaitCondition = (typeof WAIT_CONDITIONS)[number];

export const WAIT_DEFAULTS = {
  timeoutMs: 5_000,
  maxTimeoutMs: 60_000,
  idleMs: 500,
  /** Between looks when the app reports no changes. */
  pollMs: 250,
  /** Between looks at an app that reports changes but sent none: some changes send no event. */
  recheckMs: 1_000,
} as const;
