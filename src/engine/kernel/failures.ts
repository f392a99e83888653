/**
 * Helper failures in the agent's words: what failed, why, what to do next. One table, keyed by every error code
 * a helper call can end with (the helper's and the client's); the compiler refuses a code without an entry.
 */
import { MacpilotError } from '../../errors.js';
import { ClientErrorCode, type ErrorCode, HelperError } from '../../helper-client/errors.js';
import { HelperErrorCode } from '../../helper-client/protocol.js';

export const isGone = (error: unknown): boolean =>
  error instanceof HelperError && error.code === HelperErrorCode.ElementGone;

export const isAppNotFound = (error: unknown): boolean =>
  error instanceof HelperError && error.code === HelperErrorCode.AppNotFound;

/** The helper cannot do this here (not implemented by the platform, or refused by the toolkit). */
export const isUnavailable = (error: unknown): boolean =>
  error instanceof HelperError &&
  (error.code === HelperErrorCode.NotAvailable || error.code === HelperErrorCode.ActionFailed);

const PERMISSION_NEXT =
  'open System Settings > Privacy & Security > Accessibility (and Screen & System Audio Recording for ' +
  'screenshots), allow "macpilot Helper" (or, if `macpilot doctor` says the helper could not take its own ' +
  'identity, the app that runs macpilot: your terminal or MCP client), then run `macpilot doctor`';
const RESTART_NEXT = 'retry (the helper restarts by itself); if it keeps failing, run `macpilot doctor`';

interface Advice {
  /** The failure's kind, for records that keep no sentences (MacpilotError.kind). */
  kind: string;
  /** What failed, when no caller said what it was doing. */
  what: string;
  /** Put before the helper's message in `why`. */
  context?: string;
  /** What to do next; `runningApps` lists the apps when one was not found. */
  next: string | ((runningApps: string | undefined) => string);
  /** A refusal the person's settings made, not a failure (audited as refused). */
  refusal?: boolean;
  /** What to do next, for a person at the terminal, where the agent's advice names tools and arguments. */
  personNext?: string;
}

const ADVICE = {
  [HelperErrorCode.ElementGone]: {
    kind: 'element_gone',
    what: 'The element is gone',
    next: 'take a new snapshot_ui or use find_elements to get a fresh ref',
  },
  [HelperErrorCode.AppNotFound]: {
    kind: 'app_not_running',
    what: 'The app is not running',
    next: (apps) => (apps ? `running apps: ${apps}` : 'list_apps shows the running apps'),
  },
  [HelperErrorCode.ActionFailed]: {
    kind: 'action_failed',
    what: 'The action failed',
    next: 'get_element lists the actions the element has; it may be disabled or hidden',
    personNext: '`macpilot get <path>` lists the actions it has; it may be disabled or hidden',
  },
  [HelperErrorCode.ValueNotSettable]: {
    kind: 'value_not_settable',
    what: 'The value cannot be set',
    next: 'focus the element and use type_text, or use perform_action with one of its actions',
    personNext:
      'see what it is with `macpilot get <path>`; a slider or a spin box takes a number in its range (the Why ' +
      'names it where the control told it); a control without a value of its own is pressed with `macpilot click <path>`',
  },
  [HelperErrorCode.NotAvailable]: {
    kind: 'not_available',
    what: 'Not available here',
    context: 'a capability is missing here: ',
    next: 'call check_permissions to see what is missing (a person can run `macpilot doctor`)',
  },
  [HelperErrorCode.PermissionDenied]: {
    kind: 'permission_missing',
    what: 'Not permitted',
    next: PERMISSION_NEXT,
  },
  [HelperErrorCode.Timeout]: {
    kind: 'app_timed_out',
    what: 'The app did not answer in time',
    next: 'wait a few seconds and retry: other apps answer meanwhile, and list_windows still lists its windows',
  },
  [HelperErrorCode.InvalidParams]: {
    kind: 'helper_refused_request',
    what: 'The helper refused the request',
    next: 'check the arguments; take a fresh snapshot_ui if the UI has changed',
  },
  [HelperErrorCode.Failed]: {
    kind: 'helper_failed',
    what: 'The helper failed',
    next: 'retry once; if it fails again, take a snapshot_ui to check the element',
  },
  [HelperErrorCode.PersonActive]: {
    kind: 'person_is_using_the_desk',
    what: 'Not done: the person is using the desk',
    next:
      'wait until they have stopped using the mouse and keyboard (a few seconds without input), then call again; ' +
      'act through elements (set_value, type_text with ref, click_element with background: true) to work beside ' +
      'them. The person turns this off with MACPILOT_PERSON_FIRST=off',
    refusal: true,
  },
  [ClientErrorCode.HelperExited]: {
    kind: 'helper_stopped',
    what: 'The platform helper stopped',
    next: RESTART_NEXT,
  },
  [ClientErrorCode.VersionMismatch]: {
    kind: 'helper_mismatch',
    what: 'The platform helper does not match',
    next: 'reinstall macpilot so that the server and its helper come from the same release, then run `macpilot doctor`',
  },
  [ClientErrorCode.BadResponse]: {
    kind: 'helper_answered_wrongly',
    what: 'The platform helper answered wrongly',
    next: RESTART_NEXT,
  },
  [ClientErrorCode.Cancelled]: {
    kind: 'cancelled',
    what: 'Cancelled',
    next: 'nothing: the request was cancelled',
  },
} satisfies Record<ErrorCode, Advice>;

const HANDSHAKE_NEXT =
  'run `macpilot doctor`, which starts the helper and says what went wrong; a helper path given in MACPILOT_HELPER_PATH (or "helperPath" in the config file) must name macpilot\'s own helper';

const adviceFor = (code: number): Advice | undefined => (ADVICE as Record<number, Advice>)[code];

/** A HelperError as a MacpilotError whose `what` is given, or else the table's. */
export function helperFailure(error: HelperError, what?: string, runningApps?: string): MacpilotError {
  // The handshake itself failed: the helper never started, whatever the code says (a timeout is no busy app).
  if (error.method === 'system.hello' && error.code !== ClientErrorCode.VersionMismatch) {
    return new MacpilotError(
      {
        what: what ?? 'The platform helper did not start',
        why: error.message.replace('system.hello', 'its handshake'),
        next: HANDSHAKE_NEXT,
        kind: 'helper_did_not_start',
      },
      { cause: error },
    );
  }
  const advice = adviceFor(error.code) ?? {
    kind: 'helper_failed',
    what: `${error.method || 'The helper'} failed`,
    next: 'check the arguments; take a fresh snapshot_ui if the UI has changed',
  };
  // An app that is not installed: what is installed is the next step, not what is running. A capability that is
  // missing or not permitted: the helper knows what gets it on this desktop, better than the table.
  // A value the control does not take: its own range or options are what to give instead.
  const valueNotTaken = error.code === HelperErrorCode.ValueNotSettable && error.data.notTaken === true;
  const notInstalled = error.method === 'apps.launch' && error.code === HelperErrorCode.AppNotFound;
  const hintIsNext =
    error.data.hint !== undefined &&
    (notInstalled ||
      error.code === HelperErrorCode.NotAvailable ||
      error.code === HelperErrorCode.PermissionDenied ||
      valueNotTaken);
  const hint = error.data.hint && !hintIsNext ? ` (${error.data.hint})` : '';
  return new MacpilotError(
    {
      what: what ?? advice.what,
      // A cancel names the helper request it stopped ("ax.snapshot was cancelled"): no words for a reader.
      why:
        error.code === ClientErrorCode.Cancelled
          ? 'it was cancelled before it finished'
          : `${advice.context ?? ''}${error.message}${hint}`,
      next:
        hintIsNext && error.data.hint
          ? error.data.hint
          : typeof advice.next === 'function'
            ? advice.next(runningApps)
            : advice.next,
      // A value the control does not take (an option it lacks, a number beyond its range): the value was wrong.
      kind: valueNotTaken ? 'value_not_taken' : notInstalled ? 'app_not_installed' : advice.kind,
      ...(error.data.notTaken === true ? { concerns: ['value'] } : {}),
      refusal: advice.refusal,
      ...(advice.personNext && !hintIsNext ? { person: { next: advice.personNext } } : {}),
    },
    { cause: error },
  );
}

/**
 * A HelperError as a MacpilotError about `doing` ("click button "OK" [ref=e3]") when given, else in the table's
 * words; a code outside the table (a helper's own JSON-RPC error) keeps its message with generic advice.
 * Anything that is not a HelperError is returned unchanged.
 */
export function explain(error: unknown, doing?: string, runningApps?: string): unknown {
  if (!(error instanceof HelperError)) return error;
  return helperFailure(error, doing === undefined ? undefined : `Could not ${doing}`, runningApps);
}
