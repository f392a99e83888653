/** The command line was wrong: macpilot exits with code 2 and says what to type instead. */
export class UsageError extends Error {
  override name = 'UsageError';
}
