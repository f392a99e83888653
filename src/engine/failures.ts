/** Helper failures in the agent's words: what failed, why, what to do next. */

import { MacpilotError } from '../errors.js';
import { ClientErrorCode, HelperError } from '../helper/client.js';
import { HelperErrorCode } from '../helper/protocol.js';

export const isGone = (error: unknown): boolean =>
  error instanceof HelperError && error.code === HelperErrorCode.ElementGone;

export const isAppNotFound = (error: unknown): boolean =>
  error instanceof HelperError && error.code === HelperErrorCode.AppNotFound;

/** The helper cannot do this here (not implemented by the platform, or refused by the toolkit). */
export const isUnavailable = (error: unknown): boolean =>
  error instanceof HelperError &&
  (error.code === HelperErrorCode.NotAvailable || error.code === HelperErrorCode.ActionFailed);

const withHint = (error: HelperError) =>
  error.data.hint ? `${error.message} (${error.data.hint})` : error.message;

const PERMISSION_NEXT =
  'open System Settings > Privacy & Security > Accessibility (and Screen & System Audio Recording for ' +
  'screenshots), allow "macpilot Helper" (or, if `macpilot doctor` says the helper could not take its own ' +
  'identity, the app that runs macpilot: your terminal or MCP client), then run `macpilot doctor`';

type Parts = { why: string; next: string };

function partsFor(error: HelperError, runningApps: string | undefined): Parts | undefined {
  const why = withHint(error);
  switch (error.code) {
    case HelperErrorCode.ElementGone:
      return { why, next: 'take a new snapshot_ui or use find_elements to get a fresh ref' };
    case HelperErrorCode.AppNotFound:
      return { why, next: runningApps ? `running apps: ${runningApps}` : 'list_apps shows the running apps' };
    case HelperErrorCode.ActionFailed:
      return { why, next: 'get_element lists the actions the element has; it may be disabled or hidden' };
    case HelperErrorCode.ValueNotSettable:
      return {
        why,
        next: 'focus the element and use type_text, or use perform_action with one of its actions',
      };
    case HelperErrorCode.NotAvailable:
      return {
        why: `a capability is missing here: ${why}`,
        next: 'run `macpilot doctor` to see what is missing',
      };
    case HelperErrorCode.PermissionDenied:
      return { why, next: PERMISSION_NEXT };
    case HelperErrorCode.Timeout:
      return {
        why,
        next: 'the app may be busy or showing a modal dialog; wait and retry, or snapshot its windows',
      };
    case HelperErrorCode.InvalidParams:
    case HelperErrorCode.Failed:
      return { why, next: 'retry once; if it fails again, take a snapshot_ui to check the element' };
    case ClientErrorCode.HelperExited:
    case ClientErrorCode.VersionMismatch:
    case ClientErrorCode.BadResponse:
      return {
        why,
        next: 'retry (the helper restarts by itself); if it keeps failing, run `macpilot doctor`',
      };
    case ClientErrorCode.Cancelled:
      return { why, next: 'nothing: the request was cancelled' };
    default:
      return undefined;
  }
}

/** A HelperError as a MacpilotError about `doing` ("click button "OK" [ref=e3]"); anything else unchanged. */
export function explain(error: unknown, doing: string, runningApps?: string): unknown {
  if (!(error instanceof HelperError)) return error;
  const parts = partsFor(error, runningApps);
  return parts ? new MacpilotError({ what: `Could not ${doing}`, ...parts }, { cause: error }) : error;
}
