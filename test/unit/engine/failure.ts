/** The MacpilotError a promise must reject with, for the test to check what it says. */
import { MacpilotError } from '../../../src/errors.js';

export async function failure(promise: Promise<unknown>): Promise<MacpilotError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof MacpilotError) return error;
  throw new Error(`expected a MacpilotError, got ${String(error)}`);
}
