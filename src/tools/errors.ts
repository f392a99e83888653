/** How a failure reaches the agent: a tool result with isError and three parts, never a protocol error. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { explain } from '../engine/kernel/failures.js';
import { MacpilotError } from '../errors.js';
import { HelperError } from '../helper-client/errors.js';
import type { Logger } from '../log.js';

/** A failed call's answer: the result the agent reads, and the failure itself for a person's rendering. */
export function failedAnswer(
  error: unknown,
  toolName: string,
  log: Logger,
): { result: CallToolResult; failure: MacpilotError } {
  const failure = asFailure(error, toolName, log);
  return { result: { content: [{ type: 'text', text: failure.render() }], isError: true }, failure };
}

/** Any error as a MacpilotError; one that is not already is a bug, logged as such. */
function asFailure(error: unknown, toolName: string, log: Logger): MacpilotError {
  const explained = error instanceof HelperError ? explain(error) : error;
  if (explained instanceof MacpilotError) return explained;
  log.error(`${toolName}: unexpected failure: ${error instanceof Error ? error.stack : String(error)}`);
  return new MacpilotError({
    what: `${toolName} failed unexpectedly`,
    why: error instanceof Error ? error.message : String(error),
    next: 'this is a bug in macpilot; the server keeps running, so retry or try another way',
  });
}
