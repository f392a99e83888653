/** How a failure reaches the agent: a tool result with isError and three parts, never a protocol error. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { explain } from '../engine/kernel/failures.js';
import { MacpilotError } from '../errors.js';
import { HelperError } from '../helper-client/errors.js';
import type { Logger } from '../log.js';

export function errorResult(error: unknown, toolName: string, log: Logger): CallToolResult {
  const explained = error instanceof HelperError ? explain(error) : error;
  let failure: MacpilotError;
  if (explained instanceof MacpilotError) failure = explained;
  else {
    log.error(`${toolName}: unexpected failure: ${error instanceof Error ? error.stack : String(error)}`);
    failure = new MacpilotError({
      what: `${toolName} failed unexpectedly`,
      why: error instanceof Error ? error.message : String(error),
      next: 'this is a bug in macpilot; the server keeps running, so retry or try another way',
    });
  }
  return { content: [{ type: 'text', text: failure.render() }], isError: true };
}
