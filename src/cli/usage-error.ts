/** The command line was wrong: macpilot exits with code 2 and says what to type instead. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The exit code of a command line that was wrong. */
export const USAGE_EXIT = 2;
