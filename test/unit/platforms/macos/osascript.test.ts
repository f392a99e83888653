import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MacpilotError } from '../../../../src/errors.js';
import { Osascript, osascriptArgs } from '../../../../src/platforms/macos/osascript.js';
import { OUTPUT_LIMIT } from '../../../../src/services/process.js';
import { SCRIPTS } from '../../../../src/platforms/macos/scripts.js';
import { FakeMac } from '../../../support/fake-macos.js';

/** Values a shell or an option parser would act on: they must reach the script as they are. */
const HOSTILE = [
  '-e',
  'say "hi"',
  "it's",
  'two\nlines',
  '`id`',
  '$(touch /tmp/x)',
  '-l',
  '--',
  '',
  ' spaced ',
];

const fake = new FakeMac();
const osascript = new Osascript(fake.commands.osascript);
afterAll(() => fake.remove());
beforeEach(() => {
  fake.reset();
  fake.answer('osascript', { stdout: '{"ok":true}\n' });
});

async function expectError(promise: Promise<unknown>): Promise<MacpilotError> {
  const error: unknown = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(MacpilotError);
  return error as MacpilotError;
}

describe('osascript argv', () => {
  it('puts the language, then "-" for the program on stdin, then each value as one entry', () => {
    expect(osascriptArgs('jxa', ['a', 'b'])).toEqual(['-l', 'JavaScript', '-', 'a', 'b']);
    expect(osascriptArgs('applescript', [])).toEqual(['-l', 'AppleScript', '-']);
  });

  it('always has "-" before the first value, whatever the values look like', () => {
    for (const value of HOSTILE) {
      const args = osascriptArgs('jxa', [value, 'x']);
      expect(args.indexOf('-')).toBe(2);
      expect(args.slice(3)).toEqual([value, 'x']);
    }
  });

  it('hands the values to osascript unchanged and the script on stdin', async () => {
    await osascript.runConstant(SCRIPTS.notify, HOSTILE.slice(0, 4));
    const call = fake.lastCall();
    expect(call.argv).toEqual(['-l', 'JavaScript', '-', ...HOSTILE.slice(0, 4)]);
    expect(call.stdin).toBe(SCRIPTS.notify.source);
  });

  it('passes every hostile value through one run unchanged', async () => {
    await osascript.runConstant(SCRIPTS.statusBar, ['items', '1', '1', '0', ...HOSTILE]);
    expect(fake.lastCall().argv.slice(3)).toEqual(['items', '1', '1', '0', ...HOSTILE]);
  });

  it('runs a user script with no values at all', async () => {
    const result = await osascript.runUserScript('return "hi"', 'applescript');
    expect(fake.lastCall().argv).toEqual(['-l', 'AppleScript', '-']);
    expect(fake.lastCall().stdin).toBe('return "hi"');
    expect(result.output).toBe('{"ok":true}');
    // @ts-expect-error: a user script takes no values
    await osascript.runUserScript('return "hi"', 'applescript', {}, ['value']);
  });
});

describe('osascript results and failures', () => {
  it('parses a constant script JSON answer', async () => {
    await expect(osascript.runConstant(SCRIPTS.audio, ['get'])).resolves.toEqual({ ok: true });
  });

  it('returns log lines (stderr) apart from the output', async () => {
    fake.answer('osascript', { stdout: 'result\n', stderr: 'logged line\n' });
    const result = await osascript.runUserScript('x', 'jxa');
    expect(result).toMatchObject({ output: 'result', log: 'logged line', cut: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('maps a failing run to its error, naming what the script was doing', async () => {
    fake.answer('osascript', { stderrFixture: 'errors/automation-british-1743.txt', exitCode: 1 });
    const error = await expectError(osascript.runConstant(SCRIPTS.reveal, ['/tmp']));
    expect(error.what).toBe('Revealing the item in Finder: not allowed to control System Events');
  });

  it('stops a script past its time limit and names the limit', async () => {
    fake.answer('osascript', { sleepMs: 20_000 });
    const error = await expectError(osascript.runUserScript('delay 20', 'applescript', { timeoutMs: 300 }));
    expect(error.what).toBe('Running your script: no answer within 0.3 s');
    expect(error.why).toContain('SIGTERM, then SIGKILL');
    expect(error.next).toContain('timeout_ms');
  });

  it('kills a script that ignores SIGTERM after the grace period', async () => {
    fake.answer('osascript', { sleepMs: 60_000, ignoreSigterm: true });
    const error = await expectError(osascript.runUserScript('x', 'jxa', { timeoutMs: 300 }));
    expect(error.what).toContain('no answer within 0.3 s');
  });

  it('is cancelled through the AbortSignal', async () => {
    fake.answer('osascript', { sleepMs: 20_000 });
    const controller = new AbortController();
    const run = osascript.runUserScript('x', 'jxa', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await expectError(run);
    expect(error.what).toBe('Running your script: cancelled');
  });

  it('cuts output past the limit and says so', async () => {
    fake.answer('osascript', { stdout: 'x'.repeat(OUTPUT_LIMIT + 10) });
    const result = await osascript.runUserScript('x', 'applescript');
    expect(result.cut).toBe(true);
    expect(result.output.length).toBeLessThanOrEqual(OUTPUT_LIMIT);
  });

  it('refuses a constant script that answers no JSON', async () => {
    fake.answer('osascript', { stdout: 'not json\n' });
    await expect(osascript.runConstant(SCRIPTS.audio, ['get'])).rejects.toThrow(
      /audio answered no JSON: not json/,
    );
  });

  it('says so when something else ends osascript', async () => {
    fake.answer('osascript', { signalSelf: 'SIGKILL' });
    const error = await expectError(osascript.runUserScript('x', 'jxa'));
    expect(error.what).toBe(`Running your script: ${fake.commands.osascript} was stopped`);
    expect(error.why).toContain('SIGKILL');
  });

  it('says so when osascript itself cannot run', async () => {
    const missing = new Osascript('/nonexistent/osascript');
    const error = await expectError(missing.runUserScript('x', 'jxa'));
    expect(error.what).toBe('Running your script: /nonexistent/osascript could not run');
  });
});
