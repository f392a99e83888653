import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScriptFailure, scriptError } from '../../../../src/platforms/macos/osascript-errors.js';
import { FIXTURES } from '../../../support/fake-macos.js';

const ERRORS = join(FIXTURES, 'errors');
const stderr = (name: string) => readFileSync(join(ERRORS, `${name}.txt`), 'utf8');

/** What each recorded stderr must turn into: parts of what / why / next. */
const EXPECTED: Record<string, { number?: number; what: RegExp; why?: RegExp; next: RegExp }> = {
  'automation-british-1743': {
    number: -1743,
    what: /not allowed to control System Events/,
    why: /Apple events to System Events \(error -1743\)/,
    next: /Privacy & Security > Automation > .* > System Events/,
  },
  'automation-american-1743': { number: -1743, what: /control iTerm$/, next: /Automation > .* > iTerm/ },
  'automation-localized-1743': {
    number: -1743,
    what: /not allowed to control the app the script addresses/,
    next: /Privacy & Security > Automation/,
  },
  'assistive-25211': {
    number: -25211,
    what: /not allowed to use Accessibility/,
    why: /^osascript is not allowed assistive access\. \(error -25211\)/,
    next: /Privacy & Security > Accessibility.*macpilot doctor/,
  },
  'assistive-1719': {
    number: -1719,
    what: /not allowed to use Accessibility/,
    next: /Accessibility.*macpilot doctor/,
  },
  'invalid-index-1719': {
    number: -1719,
    what: /not found$/,
    why: /Invalid index/,
    next: /list what exists first/,
  },
  'not-found-1728': {
    number: -1728,
    what: /not found$/,
    why: /Screen Mirroring/,
    next: /list what exists first/,
  },
  'jxa-not-found-1728': {
    number: -1728,
    what: /not found$/,
    why: /^Can't get object\. \(error -1728\)$/,
    next: /list/,
  },
  'jxa-logged-then-1728': { number: -1728, what: /not found$/, why: /^Can't get object\./, next: /list/ },
  'not-running-600': {
    number: -600,
    what: /Übersicht is not running/,
    next: /open Übersicht \(launch_app\)/,
  },
  'jxa-not-running-600': { number: -600, what: /the app is not running/, next: /launch_app/ },
  'apple-event-timeout-1712': {
    number: -1712,
    what: /Reminders did not answer in time/,
    why: /busy, hung, or waiting for a dialog/,
    next: /answer any dialog/,
  },
  'syntax-2741': {
    number: -2741,
    what: /does not compile/,
    why: /Expected end of line, etc\. but found real number\. at characters 32-37 \(error -2741\)/,
    next: /validate_script/,
  },
  'syntax-2740': {
    number: -2740,
    what: /does not compile/,
    why: /at characters 10-14/,
    next: /fix the script/,
  },
  'jxa-syntax-2700': {
    number: -2700,
    what: /does not compile/,
    why: /Error on line 3: SyntaxError: Unexpected token '\)' at characters 152-174/,
    next: /fix the script/,
  },
  'user-cancelled-128': { number: -128, what: /cancelled by the user/, next: /ask the user/ },
  'jxa-error-2700': {
    number: -2700,
    what: /the script failed/,
    why: /^TypeError: .* is not a function/,
    next: /threw/,
  },
  'unknown-10810': {
    number: -10810,
    what: /the script failed/,
    why: /An error of type -10810 has occurred\. at characters 110-114 \(error -10810\)/,
    next: /OSA error -10810/,
  },
  'osacompile-2741': {
    number: -2741,
    what: /does not compile/,
    why: /on line 31 \(error -2741\)/,
    next: /fix/,
  },
};

describe('osascript errors', () => {
  it('has an expectation for every recorded fixture, and a fixture for every expectation', () => {
    const files = readdirSync(ERRORS).map((file) => file.replace(/\.txt$/, ''));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`maps ${name}`, () => {
      const failure = parseScriptFailure(stderr(name));
      expect(failure.number).toBe(expected.number);
      const error = scriptError(stderr(name), 'Doing the thing');
      expect(error.what.startsWith('Doing the thing: ')).toBe(true);
      expect(error.what).toMatch(expected.what);
      if (expected.why) expect(error.why).toMatch(expected.why);
      expect(error.next).toMatch(expected.next);
    });
  }

  it('reads positions as character offsets from osascript and as a line from osacompile', () => {
    expect(parseScriptFailure(stderr('syntax-2741'))).toMatchObject({
      range: { start: 32, end: 37 },
      kind: 'syntax',
    });
    expect(parseScriptFailure(stderr('osacompile-2741'))).toMatchObject({ line: 31 });
    expect(parseScriptFailure(stderr('jxa-not-found-1728'))).not.toHaveProperty('line');
  });

  it('keeps a message it cannot parse', () => {
    const error = scriptError('osascript: something odd happened\n', 'Doing the thing');
    expect(error.why).toContain('osascript: something odd happened');
  });
});
