/**
 * What osascript and osacompile print when a script fails, turned into what / why / next.
 *
 * osascript:  `96:148: execution error: Not authorised to send Apple events to System Events. (-1743)`
 *             `32:37: syntax error: Expected end of line, etc. but found real number. (-2741)`
 *             `execution error: Error: Error: Can't get object. (-1728)` (JXA)
 *             `152:174: syntax error: Error on line 3: SyntaxError: Unexpected token ')' (-2700)` (JXA)
 * osacompile: `<file>:31: error: Expected end of line, etc. but found identifier. (-2741)` (a line number)
 *
 * Messages are localized and spelled both "authorized" and "authorised", so the error number decides; the text
 * only supplies names (the app) when it is in English.
 */
import { MacpilotError } from '../../errors.js';

export interface ScriptFailure {
  /** The OSA error number, when osascript printed one. */
  number?: number;
  /** The message without its position, kind and number. */
  message: string;
  kind: 'execution' | 'syntax' | 'unknown';
  /** osascript: character offsets into the script. */
  range?: { start: number; end: number };
  /** osacompile: the line. */
  line?: number;
}

/** The first "error:" of the line, with osascript's kind before it. */
const MARKER = /(?:(execution|syntax|script)\s+)?error:\s*/;
/** Positions at the end of the prefix: "96:148: " (characters) or "<file>:31: " (osacompile's line). */
const POSITIONS = /(?:^|:)(\d+)(?::(\d+))?:\s*$/;
const TRAILING_NUMBER = /\s*\((-?\d+)\)\s*$/;

/** The last line of stderr that reports an error (JXA's console.log lines come before it). */
export function parseScriptFailure(stderr: string): ScriptFailure {
  const lines = stderr.split('\n').map((line) => line.trim());
  const errorLine = lines.findLast((line) => MARKER.test(line)) ?? lines.findLast(Boolean) ?? '';
  const marker = MARKER.exec(errorLine);
  if (!marker) return { message: errorLine || 'osascript failed without saying why', kind: 'unknown' };
  const prefix = errorLine.slice(0, marker.index);
  let text = errorLine.slice(marker.index + marker[0].length);
  const number = TRAILING_NUMBER.exec(text);
  if (number) text = text.slice(0, number.index);
  const failure: ScriptFailure = {
    message: text.replace(/^(?:Error:\s*)+/, '').trim() || 'no message',
    kind: marker[1] === 'execution' ? 'execution' : marker[1] ? 'syntax' : 'unknown',
    ...(number?.[1] === undefined ? {} : { number: Number(number[1]) }),
  };
  const positions = POSITIONS.exec(prefix);
  if (positions?.[1] !== undefined && positions[2] !== undefined) {
    failure.range = { start: Number(positions[1]), end: Number(positions[2]) };
  } else if (positions?.[1] !== undefined) failure.line = Number(positions[1]);
  return failure;
}

const SYNTAX_NUMBERS = new Set([-2740, -2741]);

export function isSyntaxFailure(failure: ScriptFailure): boolean {
  return failure.kind === 'syntax' || (failure.number !== undefined && SYNTAX_NUMBERS.has(failure.number));
}

/** "at characters 96-148" / "on line 31", or nothing. */
export function where(failure: ScriptFailure): string {
  if (failure.range) return ` at characters ${failure.range.start}-${failure.range.end}`;
  if (failure.line !== undefined) return ` on line ${failure.line}`;
  return '';
}

/** The app named in "Not authorized to send Apple events to Finder." or "Finder got an error: ...". */
function appNamed(message: string): string | undefined {
  return (
    /Apple ?events to (.+?)\.?$/i.exec(message)?.[1] ?? /^(.+?) got an error:/.exec(message)?.[1]
  )?.trim();
}

/** The message without "System Events got an error: ". */
function plain(message: string): string {
  return message.replace(/^.+? got an error:\s*/, '');
}

const THE_CLIENT = 'the app that runs macpilot (your MCP client, e.g. Claude or a terminal)';

/** What / why / next for a failure; `action` says what the script was doing ("Reading the output volume"). */
export function explainFailure(failure: ScriptFailure, action: string): MacpilotError {
  const code = failure.number === undefined ? '' : ` (error ${failure.number})`;
  const error = (kind: string, what: string, why: string, next: string) =>
    new MacpilotError({ what: `${action}: ${what}`, why, next, kind });
  const app = appNamed(failure.message);

  if (isSyntaxFailure(failure)) {
    return error(
      'script_does_not_compile',
      'the script does not compile',
      `${failure.message}${where(failure)}${code}`,
      'fix the script at that position; validate_script compiles a script without running it',
    );
  }
  switch (failure.number) {
    case -1743: {
      const target = app ?? 'the app the script addresses';
      return error(
        'permission_missing',
        `not allowed to control ${target}`,
        `macOS has not given ${THE_CLIENT} permission to send Apple events to ${target}${code}`,
        `allow it in System Settings > Privacy & Security > Automation > (your MCP client, or macpilot) > ${target}, then try again; if no switch is listed there, quit and reopen the MCP client so that macOS asks again`,
      );
    }
    case -25211:
      return accessibility(error, failure.message, code);
    case -1719:
      if (/assistive/i.test(failure.message)) return accessibility(error, failure.message, code);
      return error(
        'script_object_not_found',
        'not found',
        `${failure.message}${code}: no element at that index`,
        'list what exists first and use a name or index from that list; if the message speaks of assistive access in another language, allow Accessibility in System Settings > Privacy & Security > Accessibility',
      );
    case -1728:
      return error(
        'script_object_not_found',
        'not found',
        `${failure.message}${code}`,
        'list what exists first (the app may name it differently, or it has closed); then try again with a name from that list',
      );
    case -600:
      return error(
        'app_not_running',
        `${app ?? 'the app'} is not running`,
        `${failure.message}${code}`,
        `open ${app ?? 'the app'} (launch_app) and try again`,
      );
    case -1712:
      return error(
        'app_timed_out',
        `${app ?? 'the app'} did not answer in time`,
        `${failure.message}${code}: the app is busy, hung, or waiting for a dialog to be answered`,
        `bring ${app ?? 'the app'} to the front, answer any dialog or permission prompt, and try again; a script of your own can wrap slow commands in \`with timeout of N seconds\``,
      );
    case -128:
      return error(
        'cancelled_by_person',
        'cancelled by the user',
        `someone pressed Cancel in a dialog the script showed${code}`,
        'ask the user before trying again',
      );
    case -2700:
      return error(
        'script_failed',
        'the script failed',
        `${failure.message}${code}`,
        'read the message: it is what the script threw',
      );
    default:
      return error(
        'script_failed',
        'the script failed',
        `${failure.message}${where(failure)}${code}`,
        failure.number === undefined
          ? 'read the message above; run the script in Script Editor to see more'
          : `look up OSA error ${failure.number} in the app's scripting dictionary or Apple's AppleScript error list`,
      );
  }
}

function accessibility(
  error: (kind: string, what: string, why: string, next: string) => MacpilotError,
  message: string,
  code: string,
): MacpilotError {
  return error(
    'permission_missing',
    'not allowed to use Accessibility (UI scripting)',
    `${plain(message)}${code}: System Events may only read and press other apps' controls for an app that has Accessibility access`,
    `allow ${THE_CLIENT} in System Settings > Privacy & Security > Accessibility, then try again; \`macpilot doctor\` shows which permissions are missing`,
  );
}

/** osascript's stderr straight to the error an agent reads. */
export function scriptError(stderr: string, action: string): MacpilotError {
  return explainFailure(parseScriptFailure(stderr), action);
}
