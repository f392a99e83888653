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
  /** The session's tools and every tool: advice that names one the session does not offer says so. */
  offered?: { listed: readonly string[]; all: readonly string[] },
): { result: CallToolResult; failure: MacpilotError } {
  const failure = asFailure(error, toolName, log);
  const text = `${failure.render()}${unofferedNote(failure, offered)}`;
  return { result: { content: [{ type: 'text', text }], isError: true }, failure };
}

function unofferedNote(
  failure: MacpilotError,
  offered?: { listed: readonly string[]; all: readonly string[] },
) {
  const named = (offered?.all ?? []).filter(
    (name) => !offered?.listed.includes(name) && new RegExp(`\\b${name}\\b`).test(failure.next),
  );
  if (named.length === 0) return '';
  const one = named.length === 1;
  return `\n(${named.join(' and ')} ${one ? 'is' : 'are'} not among this server's tools: ${one ? 'its toolset is' : 'their toolsets are'} left out of MACPILOT_TOOLSETS, or the mode hides ${one ? 'it' : 'them'}.)`;
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
    kind: 'internal_error',
  });
}
