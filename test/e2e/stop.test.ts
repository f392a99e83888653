/**
 * The kill switch: `macpilot stop` reaches the server, cancels the typing in flight (the text stops growing), and
 * actions are answered "paused by the person at the desk" while reading goes on; `macpilot resume` lets them run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { CLI, startMacpilot, useMacpilot } from '../support/mcp.js';
import { refOf } from '../support/text.js';

const control = mkdtempSync(join(tmpdir(), 'macpilot-control-'));
afterAll(() => rmSync(control, { recursive: true, force: true }));
const auditFile = join(control, 'audit.jsonl');
const env = { ...inject('desktopEnv'), MACPILOT_CONTROL_DIR: control, MACPILOT_AUDIT_LOG: auditFile };
const { macpilot, launch } = useMacpilot(env);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cli = (...args: string[]) =>
  execFileSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

async function textOf(ref: string): Promise<string> {
  const value = /^value: (.*)$/m.exec(await macpilot.ok('get_element', { ref }))?.[1];
  return value === undefined ? '' : (JSON.parse(value) as string);
}

test('macpilot stop cancels the typing in flight and pauses actions until macpilot resume', async () => {
  const pid = await launch('mousepad');
  const editor = refOf(
    await macpilot.ok('find_elements', { app: String(pid), role: 'textbox' }),
    /multiline/,
  );
  // this server's socket
  expect(readdirSync(control).filter((name) => name.endsWith('.sock'))).toHaveLength(1);

  const text = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN';
  // A key the agent holds down is let go at the stop too.
  await macpilot.ok('key_down', { key: 'shift' });
  expect(await macpilot.ok('session_info')).toContain('held down: shift');
  const typing = macpilot.call('type_text', { ref: editor, text, delay_ms: 200 });
  await pause(1200);
  const stopped = cli('stop', '--minutes', '5');
  expect(stopped).toMatch(
    /^Stopped 1 macpilot server: 1 call cancelled; actions paused until \d\d:\d\d:\d\d, also in servers started meanwhile/,
  );
  const answer = await typing;
  expect(answer.isError).toBe(true);
  expect(answer.text).toContain('Stopped by the person at the desk');

  const atStop = await textOf(editor);
  await pause(800);
  expect(await textOf(editor)).toBe(atStop);
  expect(atStop.length).toBeLessThan(text.length);
  // The agent is told how far the text got, so that it does not type it all again.
  expect(answer.text).toContain(
    `Stopped by the person at the desk: ${atStop.length} of ${text.length} characters had been typed.`,
  );
  // The audit log says the person stopped it, and how much of the text had been typed: what the editor holds.
  const logged = typingLogged();
  expect(logged).toEqual([
    expect.objectContaining({
      outcome: 'stopped',
      error: 'stopped_at_the_desk',
      app: 'mousepad',
      target: expect.objectContaining({ role: expect.any(String) }),
      text_length: text.length,
      typed_length: atStop.length,
    }),
  ]);

  expect(await macpilot.ok('session_info')).toContain('held down: nothing');
  const refused = await macpilot.call('press_key', { key: 'End' });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('press_key was not run: paused by the person at the desk');
  expect(refused.text).toContain('macpilot resume');
  expect((await macpilot.call('snapshot_ui', { app: String(pid) })).isError).toBe(false);

  expect(cli('resume')).toBe('Resumed 1 macpilot server: agents may act again.\n');
  // A second resume has nothing to end, and says so.
  expect(cli('resume')).toBe('The macpilot server was not paused: agents may act.\n');
  const pressed = await macpilot.call('press_key', { key: 'End' });
  expect(pressed.isError, pressed.text).toBe(false);

  // Typing where the keyboard focus is, stopped: the audit log names where the keys went, as for typing by ref.
  const typingAtFocus = macpilot.call('type_text', { text, delay_ms: 200 });
  await pause(1200);
  cli('stop');
  expect((await typingAtFocus).text).toContain('Stopped by the person at the desk');
  cli('resume');
  const [byRef, atFocus] = typingLogged();
  expect(atFocus).toEqual(
    expect.objectContaining({ outcome: 'stopped', app: 'mousepad', target: byRef?.target }),
  );
});

function typingLogged(): Record<string, unknown>[] {
  return readFileSync(auditFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.tool === 'type_text');
}

test('with no server running, stop says so; a server started during the pause starts paused, until resume', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'macpilot-control-'));
  const own = { ...env, MACPILOT_CONTROL_DIR: empty };
  const run = (...args: string[]) =>
    execFileSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...own }, encoding: 'utf8' });
  try {
    expect(run('stop')).toMatch(
      /^No macpilot server of yours is running: nothing to stop; one that starts before \d\d:\d\d:\d\d starts with actions paused/,
    );
    const later = await startMacpilot(own);
    try {
      const refused = await later.call('set_clipboard', { text: 'paused?' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('set_clipboard was not run: paused by the person at the desk');
      expect(run('resume')).toBe('Resumed 1 macpilot server: agents may act again.\n');
      expect((await later.call('set_clipboard', { text: 'resumed' })).isError).toBe(false);
    } finally {
      await later.close();
    }
    // Resumed, the pause is no longer written down: the next server starts free.
    expect(readdirSync(empty).filter((name) => !name.endsWith('.sock'))).toEqual([]);
    // With no server at all, resume says it lifted the pause written down; then that there is nothing to do.
    run('stop');
    expect(run('resume')).toMatch(
      /^No macpilot server of yours is running; the pause until \d\d:\d\d:\d\d is lifted: a server that starts now may act\.\n$/,
    );
    expect(run('resume')).toBe('No macpilot server of yours is running; nothing to resume.\n');
    // A stop of no minutes lifts a pause written down as resume does, and says it in the same words.
    run('stop');
    expect(run('stop', '--minutes', '0')).toMatch(
      /^No macpilot server of yours is running; the pause until \d\d:\d\d:\d\d is lifted: a server that starts now may act\.\n$/,
    );
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
