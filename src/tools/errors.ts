/** How a failure reaches the agent: a tool result with isError and three parts, never a protocol error. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MacpilotError } from '../errors.js';
import { ClientErrorCode, HelperError } from '../helper/client.js';
import { HelperErrorCode } from '../helper/protocol.js';
import type { Logger } from '../log.js';

/** Helper failures that reach a tool without the engine's more specific wording. */
export function fromHelperError(error: HelperError): MacpilotError {
  const hint = error.data.hint;
  switch (error.code) {
    case ClientErrorCode.HelperExited:
      return new MacpilotError({
        what: 'The platform helper stopped',
        why: error.message,
        next: 'retry the call: the helper is restarted automatically. If it keeps failing, run `macpilot doctor`.',
      });
    case ClientErrorCode.Cancelled:
      return new MacpilotError({ what: 'Cancelled', why: error.message, next: 'nothing to do' });
    case HelperErrorCode.Timeout:
      return new MacpilotError({
        what: 'The app did not answer in time',
        why: error.message,
        next: 'the app may be busy; wait a moment and retry, or target another app',
      });
    case HelperErrorCode.NotAvailable:
    case HelperErrorCode.PermissionDenied:
      return new MacpilotError({
        what: 'Not available here',
        why: error.message,
        next: hint ?? 'run check_permissions to see what this machine allows',
      });
    default:
      return new MacpilotError({
        what: `${error.method || 'The helper'} failed`,
        why: error.message,
        next: hint ?? 'check the arguments; take a fresh snapshot_ui if the UI has changed',
      });
  }
}

export function errorResult(error: unknown, toolName: string, log: Logger): CallToolResult {
  let failure: MacpilotError;
  if (error instanceof MacpilotError) failure = error;
  else if (error instanceof HelperError) failure = fromHelperError(error);
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
