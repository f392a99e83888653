import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { RefTable } from '../../../src/engine/kernel/refs.js';
import { MacpilotError } from '../../../src/errors.js';
import { HelperError } from '../../../src/helper-client/errors.js';
import { HelperErrorCode } from '../../../src/helper-client/protocol.js';
import { createLogger } from '../../../src/log.js';
import { AuditLog, type AuditOptions } from '../../../src/policy/audit-log.js';
import { type CallOutcome, Policy, type ToolCall } from '../../../src/policy/pipeline.js';
import { allTools } from '../../../src/tools/index.js';
import { READ_ONLY, WRITE } from '../../../src/tools/types.js';
import { temporaryFolder } from '../../support/temp.js';

const SECRET = 'hunter2 correct horse';
const silent = createLogger('silent');

function setup(options: Partial<AuditOptions> = {}) {
  const file = join(temporaryFolder('macpilot-audit-'), 'state', 'macpilot', 'audit.jsonl');
  const refs = new RefTable();
  const messages: unknown[] = [];
  const clientLog = {
    send: (level: string, logger: string, data: unknown) => {
      messages.push({ level, logger, data });
    },
  };
  const audit = new AuditLog({
    file,
    refs,
    mode: 'full',
    log: silent,
    now: () => new Date('2026-11-21T12:00:00.000Z'),
    ...options,
  });
  const call = (name: string, args: Record<string, unknown>, annotations = WRITE, toolset = 'ui'): ToolCall =>
    ({
      tool: { name, toolset, annotations },
      args,
      clientLog,
      signal: new AbortController().signal,
    }) as unknown as ToolCall;
  const lines = () =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { audit, file, refs, messages, call, lines };
}

const ok: CallOutcome = { ok: true, refused: false, durationMs: 12.4 };

describe('AuditLog', () => {
  test("a write action on a ref: tool, app, target role (a field's name left out), outcome, the length of the value but not the value", () => {
    const { audit, refs, file, messages, call, lines } = setup();
    const { ref } = refs.issue('h1', {
      path: 'app("Mousepad")/window[0]/textbox',
      app: { pid: 42, name: 'Mousepad' },
      label: 'textbox "Search"',
    });
    audit.settled(call('set_value', { ref, value: SECRET }), ok);
    expect(lines()).toEqual([
      {
        time: '2026-11-21T12:00:00.000Z',
        tool: 'set_value',
        app: 'Mousepad',
        target: { role: 'textbox' },
        outcome: 'ok',
        duration_ms: 12,
        value_length: SECRET.length,
        flags: { mode: 'full' },
      },
    ]);
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2');
    expect(messages).toEqual([{ level: 'info', logger: 'audit', data: lines()[0] }]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test("a file that was there, readable by others, is made the person's alone at the first entry", () => {
    const { audit, file, call } = setup();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '', { mode: 0o644 });
    chmodSync(file, 0o644);
    audit.settled(call('click', { x: 1, y: 2 }, WRITE, 'input'), ok);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('start_recording, read-only but asking the human, is logged as an action; other reads are not', () => {
    const { audit, call, lines } = setup();
    audit.settled(call('list_apps', {}, READ_ONLY, 'apps'), ok);
    const recording = call('start_recording', {}, READ_ONLY, 'workflow');
    (recording.tool as { asksConsent?: true }).asksConsent = true;
    audit.settled(recording, ok);
    expect(lines().map((line) => [line.tool, line.outcome])).toEqual([['start_recording', 'ok']]);
  });

  test('a folder where the file should be is neither made private nor written into', () => {
    const { audit, file, call } = setup();
    mkdirSync(file, { recursive: true, mode: 0o755 });
    chmodSync(file, 0o755);
    audit.settled(call('click', { x: 1, y: 2 }, WRITE, 'input'), ok);
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(readdirSync(file)).toEqual([]);
  });

  test('typed text, clipboard text and keys are recorded by length only; raw arguments never', () => {
    const { audit, file, call } = setup();
    audit.settled(call('type_text', { text: SECRET }, WRITE, 'input'), ok);
    audit.settled(call('set_clipboard', { text: SECRET }, WRITE, 'clipboard'), ok);
    audit.settled(call('press_key', { key: 'h' }, WRITE, 'input'), ok);
    // Counted as the answers count: an emoji is one character.
    audit.settled(call('type_text', { text: 'ok 😀' }, WRITE, 'input'), ok);
    const content = readFileSync(file, 'utf8');
    expect(content).not.toContain('hunter2');
    expect(content).not.toContain('"args"');
    expect(content).toContain(`"text_length":${SECRET.length}`);
    expect(content).toContain('"key_length":1');
    expect(content).toContain('"text_length":4');
    // Text given as an object (a malformed call): nothing of it, and no length made up from its form.
    audit.settled(call('type_text', { text: { a: SECRET } }, WRITE, 'input'), ok);
    const last = readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '';
    expect(last).not.toContain('hunter2');
    expect(last).not.toContain('text_length');
  });

  test('a failure is recorded by its kind and the arguments it concerns, never its sentence', () => {
    const { audit, file, call, lines } = setup();
    const failed = (error: unknown): CallOutcome => ({ ok: false, refused: false, durationMs: 3, error });
    audit.settled(
      call('click_text', { text: SECRET }, WRITE, 'screen'),
      failed(new MacpilotError({ what: `No text "${SECRET}" on screen`, why: '-', next: '-' })),
    );
    // One letter and a common word: masking them in a sentence would garble it and give them away.
    audit.settled(
      call('press_key', { key: 'a' }, WRITE, 'input'),
      failed(
        new MacpilotError({
          what: 'press_key is not available in read-only mode',
          why: '-',
          next: '-',
          kind: 'not_in_mode',
          refusal: true,
        }),
      ),
    );
    audit.settled(
      call('type_text', { text: 'on', ref: 'e99' }, WRITE, 'input'),
      failed(
        new MacpilotError({
          what: 'Unknown ref "e99"',
          why: '-',
          next: '-',
          kind: 'unknown_ref',
          concerns: ['ref'],
        }),
      ),
    );
    audit.settled(
      call('press_key', { key: 'on' }, WRITE, 'input'),
      failed(new HelperError('input.key', HelperErrorCode.Timeout, 'on did not answer')),
    );
    audit.settled(call('type_text', { text: 'on' }, WRITE, 'input'), failed(new Error('on: boom')));
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2');
    expect(lines().map(({ error, error_arguments }) => ({ error, error_arguments }))).toEqual([
      { error: 'failed', error_arguments: undefined },
      { error: 'not_in_mode', error_arguments: undefined },
      { error: 'unknown_ref', error_arguments: ['ref'] },
      { error: 'app_timed_out', error_arguments: undefined },
      { error: 'internal_error', error_arguments: undefined },
    ]);
    for (const line of lines()) {
      const values = JSON.stringify(line);
      expect(values).not.toMatch(/"a"|"on"|\[key\]|\[text\]|read-only mode/);
    }
  });

  test('notification texts and scripts are recorded by length only', () => {
    const { audit, file, call, lines } = setup();
    audit.settled(
      call('send_notification', { title: SECRET, subtitle: SECRET, message: `${SECRET}!` }, WRITE, 'system'),
      ok,
    );
    audit.settled(call('run_applescript', { script: `say "${SECRET}"` }, WRITE, 'scripting'), ok);
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2');
    expect(lines().map(({ time: _time, duration_ms: _ms, ...rest }) => rest)).toEqual([
      {
        tool: 'send_notification',
        outcome: 'ok',
        title_length: SECRET.length,
        subtitle_length: SECRET.length,
        message_length: SECRET.length + 1,
        flags: { mode: 'full' },
      },
      { tool: 'run_applescript', outcome: 'ok', script_length: SECRET.length + 6, flags: { mode: 'full' } },
    ]);
  });

  test('a path gives the app and the last element; an app tool its app; read-only tools are not logged', () => {
    const { audit, call, lines } = setup();
    audit.settled(call('click_element', { path: 'app("Mousepad")/window[0]/button["Save"]' }), ok);
    audit.settled(call('quit_app', { name: 'Calculator' }, WRITE, 'apps'), ok);
    audit.settled(call('snapshot_ui', { app: 'Mousepad' }, READ_ONLY), ok);
    expect(lines().map(({ tool, app, target }) => ({ tool, app, target }))).toEqual([
      { tool: 'click_element', app: 'Mousepad', target: { role: 'button', name: 'Save' } },
      { tool: 'quit_app', app: 'Calculator', target: undefined },
    ]);
  });

  test('a read the app list refused is logged as refused; one that failed otherwise is not', () => {
    const { audit, call, lines, messages } = setup();
    const offLimits = new MacpilotError({
      what: 'KeePassXC is off limits',
      why: 'x',
      next: 'y',
      kind: 'app_off_limits',
      concerns: ['app'],
      refusal: true,
    });
    audit.settled(call('get_element', { app: 'KeePassXC' }, READ_ONLY), {
      ok: false,
      refused: true,
      error: offLimits,
      durationMs: 1,
    });
    audit.settled(call('snapshot_ui', { app: 'Mousepad' }, READ_ONLY), {
      ok: false,
      refused: false,
      error: new Error('gone'),
      durationMs: 1,
    });
    expect(lines().map(({ tool, app, outcome, error }) => ({ tool, app, outcome, error }))).toEqual([
      { tool: 'get_element', app: 'KeePassXC', outcome: 'refused', error: 'app_off_limits' },
    ]);
    // The agent gets no copy: its answer said the app did not run, and a refusal logged would say otherwise.
    expect(messages).toEqual([]);
  });

  test('a name that may be what was entered (a self-labelled field, a combo box showing its item) is left out', () => {
    const { audit, refs, call, lines, file } = setup();
    const field = refs.issue('h1', {
      path: 'app("Chromium")/window[0]/document/textbox["hello"]',
      app: { name: 'Chromium', pid: 9 },
      label: 'textbox "hello"',
    });
    const combo = refs.issue('h2', {
      path: 'app("zenity")/dialog/combobox',
      app: { name: 'zenity', pid: 7 },
      label: 'combobox "Violet"',
    });
    audit.settled(call('type_text', { ref: field.ref, text: 'q' }), ok);
    audit.settled(call('click_element', { ref: combo.ref }), ok);
    audit.settled(
      call('type_text', { path: 'app("Chromium")/window[0]/document/textbox["helloq"]', text: 'q' }),
      ok,
    );
    // The text inside an editable area is what was typed there.
    const inside = refs.issue('h3', {
      path: 'app("Chromium")/window[0]/document/textbox[1]/text',
      app: { name: 'Chromium', pid: 9 },
      label: 'text "hellohello"',
    });
    audit.settled(call('click_element', { ref: inside.ref }), ok);
    // So is the text of an editable element no field role names (a contenteditable div is a group).
    const editable = refs.issue('h4', {
      path: 'app("Chromium")/window[0]/document/group/text',
      app: { name: 'Chromium', pid: 9 },
      label: 'text "hello draft"',
      editable: true,
    });
    audit.settled(call('click_element', { ref: editable.ref }), ok);
    audit.settled(call('click_element', { path: editable.path }), {
      ...ok,
      actedOn: { app: 'Chromium', label: editable.label, path: editable.path, editable: true },
    });
    expect(lines().map(({ target }) => target)).toEqual([
      { role: 'textbox' },
      { role: 'combobox' },
      { role: 'textbox' },
      { role: 'text' },
      { role: 'text' },
      { role: 'text' },
    ]);
    expect(readFileSync(file, 'utf8')).not.toMatch(/hello|Violet/);
  });

  test('a path that picks by role (and index) is named by the element the call met there', () => {
    const { audit, call, lines, refs } = setup();
    refs.issue('h1', {
      path: 'app("zenity")/dialog/slider',
      app: { name: 'zenity', pid: 7 },
      label: 'slider "Volume"',
    });
    audit.settled(call('set_value', { path: 'app("zenity")/dialog/slider', value: 3 }), ok);
    audit.settled(call('set_value', { path: 'app("zenity")/dialog/slider[1]', value: 3 }), ok);
    expect(lines().map(({ target }) => target)).toEqual([
      { role: 'slider', name: 'Volume' },
      { role: 'slider' },
    ]);
  });

  test('what the answer says it acted on names the entry: the element a pid path reached, the app keys went to', () => {
    const { audit, call, lines } = setup();
    audit.settled(call('click_element', { path: 'app(7977)/dialog/button[1]' }), {
      ...ok,
      actedOn: { app: 'zenity', label: 'button "Delete"' },
    });
    audit.settled(call('press_key', { key: 'enter' }, WRITE, 'input'), {
      ...ok,
      actedOn: { app: 'mousepad' },
    });
    expect(lines().map(({ app, target }) => ({ app, target }))).toEqual([
      { app: 'zenity', target: { role: 'button', name: 'Delete' } },
      { app: 'mousepad', target: undefined },
    ]);
  });

  test('a call that failed or was refused names what it had reached: the element, or the app a guard found', async () => {
    const { audit, call, lines } = setup();
    const policy = new Policy([audit]);
    const covered = new MacpilotError({
      what: 'covered',
      why: 'x',
      next: 'y',
      kind: 'element_covered',
    }).about('app("zenity")/dialog/button[1]', { app: 'zenity', label: 'button "Delete"' });
    const click = call('click_element', { ref: 'e9' });
    await expect(
      policy.run(
        click,
        () => Promise.reject(covered),
        () => false,
      ),
    ).rejects.toBe(covered);
    const typed = call('type_text', { text: SECRET }, WRITE, 'input');
    typed.reached = { app: 'mousepad', label: 'textbox "Find"' };
    const declined = new MacpilotError({
      what: 'no',
      why: 'x',
      next: 'y',
      kind: 'declined_by_person',
      refusal: true,
    });
    await expect(
      policy.run(
        typed,
        () => Promise.reject(declined),
        () => false,
      ),
    ).rejects.toBe(declined);
    expect(lines().map(({ app, target, outcome, error }) => ({ app, target, outcome, error }))).toEqual([
      {
        app: 'zenity',
        target: { role: 'button', name: 'Delete' },
        outcome: 'failed',
        error: 'element_covered',
      },
      {
        app: 'mousepad',
        target: { role: 'textbox' },
        outcome: 'refused',
        error: 'declined_by_person',
      },
    ]);
  });

  test('a call that failed in another app than it named names the app it named, not what it found there', async () => {
    const { audit, call, lines } = setup();
    const policy = new Policy([audit]);
    const elsewhere = new MacpilotError({
      what: 'Not done: the keyboard focus is not in mousepad',
      why: 'x',
      next: 'y',
      kind: 'focus_elsewhere',
    }).about('app("gnome-calculator")/window[0]/textbox', { app: 'gnome-calculator', label: 'textbox' });
    const press = call('press_key', { key: 'End', app: 'mousepad' }, WRITE, 'input');
    await expect(
      policy.run(
        press,
        () => Promise.reject(elsewhere),
        () => false,
      ),
    ).rejects.toBe(elsewhere);
    expect(lines().map(({ app, target, error }) => ({ app, target, error }))).toEqual([
      { app: 'mousepad', target: undefined, error: 'focus_elsewhere' },
    ]);
  });

  test('a call the person stopped at the desk is "stopped", whatever the work it cut short failed with', async () => {
    const { audit, call, lines } = setup();
    const policy = new Policy([audit]);
    const stop = new AbortController();
    const typing = { ...call('type_text', { text: SECRET }, WRITE, 'input'), signal: stop.signal };
    const cancelled = new HelperError('input.type', -32800, 'input.type was cancelled');
    await expect(
      policy.run(
        typing,
        () => {
          stop.abort(
            new MacpilotError({ what: 'Stopped', why: '-', next: '-', kind: 'stopped_at_the_desk' }),
          );
          return Promise.reject(cancelled);
        },
        () => false,
      ),
    ).rejects.toBe(cancelled);
    // The same when the work answered its failure instead of throwing it (a quit that was waiting).
    const quit = { ...call('quit_app', { name: 'zenity' }, WRITE, 'apps'), signal: stop.signal };
    await policy.run(
      quit,
      async () => 'not done',
      () => true,
    );
    // A client's own cancel is no stop of the person's.
    const mine = new AbortController();
    const cancelledByClient = { ...call('press_key', { key: 'End' }, WRITE, 'input'), signal: mine.signal };
    mine.abort(new Error('the client cancelled'));
    await expect(
      policy.run(
        cancelledByClient,
        () => Promise.reject(cancelled),
        () => false,
      ),
    ).rejects.toBe(cancelled);
    expect(lines().map(({ tool, outcome, error }) => ({ tool, outcome, error }))).toEqual([
      { tool: 'type_text', outcome: 'stopped', error: 'stopped_at_the_desk' },
      { tool: 'quit_app', outcome: 'stopped', error: 'stopped_at_the_desk' },
      { tool: 'press_key', outcome: 'failed', error: 'cancelled' },
    ]);
    expect(JSON.stringify(lines())).not.toContain('hunter2');
  });

  test('a failed call that reached nothing names no target: the names in its path are only what it asked for', () => {
    const { audit, call, lines } = setup();
    const missing = new MacpilotError({ what: 'x', why: 'y', next: 'z', kind: 'no_element_at_path' });
    audit.settled(call('set_value', { path: 'app("zenity")/dialog/textbox["letmein"]', value: 'x' }), {
      ok: false,
      refused: false,
      error: missing,
      durationMs: 1,
    });
    expect(lines()[0]).toMatchObject({ app: 'zenity', outcome: 'failed' });
    expect(JSON.stringify(lines())).not.toContain('letmein');
  });

  test('an app named by its pid is logged by its name when the session met it, and always by its pid', () => {
    const { audit, call, lines, refs } = setup();
    refs.issue('h1', { path: 'app(7)/dialog', app: { name: 'zenity', pid: 7 }, label: 'dialog "Hi"' });
    audit.settled(call('click_element', { path: 'app(7)/dialog/button["OK"]' }), ok);
    audit.settled(call('click_element', { path: 'app(8)/dialog/button["OK"]' }), ok);
    audit.settled(call('quit_app', { name: '7' }, WRITE, 'apps'), ok);
    expect(lines().map(({ app, pid }) => ({ app, pid }))).toEqual([
      { app: 'zenity', pid: 7 },
      { app: undefined, pid: 8 },
      { app: 'zenity', pid: 7 },
    ]);
  });

  test('take_screenshot is logged only when file_path makes it write a file', () => {
    const { audit, call, lines } = setup();
    const screenshot = allTools.find((tool) => tool.name === 'take_screenshot');
    const shot = (args: Record<string, unknown>) => ({ ...call('take_screenshot', args), tool: screenshot });
    audit.settled(shot({ app: 'Mousepad' }) as ToolCall, ok);
    audit.settled(shot({ app: 'Mousepad', file_path: '/tmp/shot.png' }) as ToolCall, ok);
    expect(lines().map(({ tool, app }) => ({ tool, app }))).toEqual([
      { tool: 'take_screenshot', app: 'Mousepad' },
    ]);
  });

  test('refused and failed calls: the outcome and the kind of the error; notes as flags', () => {
    const { audit, call, lines } = setup();
    const refusal = new MacpilotError({
      what: 'click refused: rate limit',
      why: 'x',
      next: 'y',
      kind: 'rate_limited',
      refusal: true,
    });
    const refused = call('click', { x: 1, y: 2 }, WRITE, 'input');
    refused.notes = { consent: 'declined' };
    audit.settled(refused, { ok: false, refused: true, error: refusal, durationMs: 0 });
    audit.settled(call('click', { x: 1, y: 2 }, WRITE, 'input'), {
      ok: false,
      refused: false,
      error: new Error('boom\nstack'),
      durationMs: 3,
    });
    expect(lines().map(({ outcome, error, flags }) => ({ outcome, error, flags }))).toEqual([
      {
        outcome: 'refused',
        error: 'rate_limited',
        flags: { mode: 'full', consent: 'declined' },
      },
      { outcome: 'failed', error: 'internal_error', flags: { mode: 'full' } },
    ]);
  });

  test('past its size the file is rotated to .1, .2, ... keeping a few', () => {
    const { audit, file, call, lines } = setup({ maxBytes: 300, keep: 2 });
    for (let i = 0; i < 12; i++) audit.settled(call('click', { x: i, y: 0 }, WRITE, 'input'), ok);
    const dir = join(file, '..');
    expect(readdirSync(dir).sort()).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(300);
    expect(lines().length).toBeGreaterThan(0);
  });

  test('an unwritable file does not fail the call; the MCP log message still goes out', () => {
    const blocker = join(temporaryFolder('macpilot-audit-'), 'a-file');
    writeFileSync(blocker, '');
    const { audit, messages, call } = setup({ file: join(blocker, 'audit.jsonl') });
    expect(() => audit.settled(call('click', { x: 1, y: 1 }, WRITE, 'input'), ok)).not.toThrow();
    expect(messages).toHaveLength(1);
  });
});

describe('the audit log setting', () => {
  const home = temporaryFolder('macpilot-home-');

  test('by default under the user state directory; MACPILOT_AUDIT_LOG names a file or turns it off', () => {
    expect(loadConfig({}, {}, home).auditLog).toBe(join(home, '.local', 'state', 'macpilot', 'audit.jsonl'));
    expect(loadConfig({}, { XDG_STATE_HOME: '/var/state' }, home).auditLog).toBe(
      '/var/state/macpilot/audit.jsonl',
    );
    expect(loadConfig({}, { MACPILOT_AUDIT_LOG: '/tmp/a.jsonl' }, home).auditLog).toBe('/tmp/a.jsonl');
    expect(loadConfig({}, { MACPILOT_AUDIT_LOG: 'off' }, home).auditLog).toBeUndefined();
  });
});
