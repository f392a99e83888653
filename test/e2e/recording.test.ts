/**
 * Recording a person's demonstration through a real client: xdotool, the stand-in for the person, clicks
 * gtk3-demo's search field, types (with a typo taken back) and presses Enter; stop_recording answers steps that
 * find the field by path; replayed by run_workflow on a freshly started gtk3-demo they leave the same text in the
 * field. A menu pick (Help, then About, in mousepad) is recorded as one click_menu_item that opens the same dialog
 * when replayed. What is typed into a password field reached by Tab (zenity --forms) is left out. What was typed
 * never reaches the audit log. One recording at a time per server, refused for a denied app; stop without start
 * is an error; over HTTP, only the session that started a recording stops it, and it ends with that session.
 * What macpilot itself sends while recording (an agent's clicks and keys) is not taken for the person's.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, expect, inject, test } from 'vitest';
import { stopGroup } from '../../scripts/process-group.js';
import { connect, startHttp } from '../support/http-server.js';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually, refOf } from '../support/text.js';

const scratch = temporaryFolder('macpilot-recording-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const auditLog = join(scratch, 'audit.jsonl');
const env = { ...inject('desktopEnv'), MACPILOT_AUDIT_LOG: auditLog };
const { macpilot, processes } = useMacpilot(env);
const xdotool = (...args: string[]) => execFileSync('xdotool', args, { env });

/** Typed as the demonstration; its typo is taken back with Backspace. */
const TYPED = 'Recorded zq';
const MEANT = 'Recorded query';

interface RecordingJson {
  state: string;
  app?: string;
  events?: number;
  steps?: { tool: string; args: Record<string, unknown> }[];
  left_out?: { why: string; count: number }[];
}

const callJson = async (name: string, args: Record<string, unknown> = {}) => {
  const result = (await macpilot.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { text, isError: result.isError === true, json: result.structuredContent };
};

/** gtk3-demo's Search Entry demo, started afresh; answers its pid once its search field is there. */
async function startSearchDemo(): Promise<number> {
  const { pid } = processes.start('gtk3-demo', ['--run=search_entry']);
  await eventually('the Search Entry demo', async () => {
    const out = await macpilot.call('find_elements', { app: String(pid), role: 'textbox', name: 'Search' });
    return !out.isError && /textbox "Search"/.test(out.text) ? true : undefined;
  });
  return pid;
}

/** The search field's text in the app with this pid. */
async function searchText(pid: number): Promise<string> {
  const found = await macpilot.ok('find_elements', { app: String(pid), role: 'textbox', name: 'Search' });
  const { json } = await callJson('get_element', { ref: refOf(found, /textbox "Search"/) });
  return String((json as { value?: unknown }).value ?? '');
}

/** The centre of the search field, in screen points. */
const fieldCentre = (pid: number) => centreOf({ app: String(pid), role: 'textbox', name: 'Search' });

/** The centre of the one element find_elements finds, in screen points, as xdotool takes it. */
async function centreOf(query: Record<string, unknown>): Promise<[string, string]> {
  const found = await macpilot.ok('find_elements', query);
  const { json } = await callJson('get_element', { ref: refOf(found, /\[ref=e\d+\]/) });
  const bounds = (json as { bounds?: { x: number; y: number; width: number; height: number } }).bounds;
  expect(bounds).toBeDefined();
  const { x, y, width, height } = bounds as { x: number; y: number; width: number; height: number };
  return [String(Math.round(x + width / 2)), String(Math.round(y + height / 2))];
}

test('a demonstration is recorded as steps by path, and replaying them on a fresh gtk3-demo gives the same field', async () => {
  const first = await startSearchDemo();
  // Something else has focus first, so that the click is what puts the caret in the field.
  const find = refOf(await macpilot.ok('find_elements', { app: String(first), name: 'Find' }), /"Find"/);
  await macpilot.ok('focus_element', { ref: find });
  const [x, y] = await fieldCentre(first);

  expect(await macpilot.ok('check_permissions')).toMatch(/^- recording: available \(.*X RECORD/m);
  const started = await callJson('start_recording', { app: 'gtk3-demo' });
  expect(started.isError, started.text).toBe(false);
  expect(started.json).toEqual({ state: 'started', app: 'gtk3-demo' });
  expect(await macpilot.ok('session_info')).toMatch(/recording: "gtk3-demo" since .*, 0 presses so far/);
  const again = await macpilot.call('start_recording', {});
  expect(again.isError).toBe(true);
  expect(again.text).toMatch(/already running/);

  xdotool('mousemove', x, y, 'click', '1');
  xdotool('type', '--delay', '20', TYPED);
  xdotool('key', 'BackSpace', 'BackSpace');
  xdotool('type', '--delay', '20', 'query');
  xdotool('key', 'Return');
  expect(
    await eventually('the typed text in the field', async () =>
      (await searchText(first)) === MEANT ? true : undefined,
    ),
  ).toBe(true);
  // The presses reach the server a moment after xdotool returns: wait until session_info counts them all.
  const presses = 1 + TYPED.length + 2 + 'query'.length + 1; // Shift for "R" is held, not counted
  await eventually(`${presses} presses recorded`, async () => {
    const count = Number(/, (\d+) press(?:es)? so far/.exec(await macpilot.ok('session_info'))?.[1]);
    return count >= presses ? true : undefined;
  });

  const stopped = await callJson('stop_recording');
  expect(stopped.isError, stopped.text).toBe(false);
  const recording = stopped.json as unknown as RecordingJson;
  expect(recording.state).toBe('stopped');
  expect(recording.events).toBe(presses);
  const steps = recording.steps ?? [];
  expect(steps.map((s) => s.tool)).toEqual(['focus_element', 'type_text', 'press_key']);
  expect(steps[0]?.args.path).toMatch(/^app\("gtk3-demo"\)\/.*textbox/);
  expect(steps[1]?.args).toEqual({ text: MEANT });
  expect(steps[2]?.args).toEqual({ key: 'enter' });
  expect(stopped.text).toContain(JSON.stringify(MEANT));
  expect(await macpilot.ok('session_info')).toContain('recording: none');

  // Replayed on a freshly started demo, its field not focused first: the same text ends up in its field.
  await processes.stop(first);
  const fresh = await startSearchDemo();
  const other = refOf(await macpilot.ok('find_elements', { app: String(fresh), name: 'Find' }), /"Find"/);
  await macpilot.ok('focus_element', { ref: other });
  expect(await searchText(fresh)).toBe('');
  const replay = await callJson('run_workflow', { name: 'replay', steps });
  expect(replay.isError, replay.text).toBe(false);
  expect(replay.json).toMatchObject({ success: true, steps_completed: 3 });
  expect(await searchText(fresh)).toBe(MEANT);

  const audit = readFileSync(auditLog, 'utf8');
  expect(audit).toContain('"tool":"type_text"');
  expect(audit).not.toContain('query');
  expect(audit).not.toContain('Recorded');
});

test('what is typed after Tab into a password field is left out of the steps', async () => {
  const { pid } = processes.start('zenity', [
    '--forms',
    '--text',
    'Sign in',
    '--add-entry',
    'User',
    '--add-password',
    'Secret',
  ]);
  const user = await eventually('the form', async () => {
    const out = await macpilot.call('find_elements', { app: String(pid), role: 'textbox' });
    // The user field: the textbox that is not the password field (marked secure).
    const field = /textbox \[ref=e\d+\](?!.*secure)/;
    return !out.isError && field.test(out.text) ? refOf(out.text, field) : undefined;
  });
  await macpilot.ok('focus_element', { ref: user });
  const started = await callJson('start_recording', { app: String(pid) });
  expect(started.isError, started.text).toBe(false);
  xdotool('type', '--delay', '20', 'alice');
  xdotool('key', 'Tab');
  xdotool('type', '--delay', '20', 'hunter2');
  const presses = 'alice'.length + 1 + 'hunter2'.length;
  await eventually(`${presses} presses recorded`, async () => {
    const count = Number(/, (\d+) press(?:es)? so far/.exec(await macpilot.ok('session_info'))?.[1]);
    return count >= presses ? true : undefined;
  });
  const stopped = await callJson('stop_recording');
  const recording = stopped.json as unknown as RecordingJson;
  expect(recording.steps).toEqual([
    { tool: 'type_text', args: { text: 'alice' } },
    { tool: 'press_key', args: { key: 'tab' } },
  ]);
  expect(recording.left_out).toEqual([{ why: expect.stringMatching(/password field/), count: 7 }]);
  expect(stopped.text).not.toContain('hunter2');
  await processes.stop(pid);
});

test('keys typed in a terminal are left out; after the focus moves to another app without a key or a click, what is typed there is recorded', async () => {
  // A copy of zenity named xterm: the default lists let a terminal be read, not acted on.
  const xterm = join(temporaryFolder('macpilot-recording-xterm-'), 'xterm');
  copyFileSync('/usr/bin/zenity', xterm);
  const terminal = processes.start(xterm, ['--entry', '--title', 'terminal', '--text', 'Shell']);
  const fieldOf = (pid: number) =>
    eventually(`the entry of ${pid}`, async () => {
      const out = await macpilot.call('find_elements', { app: String(pid), role: 'textbox' });
      return out.isError ? undefined : refOf(out.text, /textbox/);
    });
  await fieldOf(terminal.pid);
  const [x, y] = await centreOf({ app: String(terminal.pid), role: 'textbox' });
  const started = await callJson('start_recording');
  expect(started.isError, started.text).toBe(false);
  // The person clicks into the terminal and types there: both left out.
  xdotool('mousemove', x, y, 'click', '1');
  xdotool('type', '--delay', '20', 'tt');
  // Another app opens (over the terminal), and the agent moves the focus into it: no key or click of the
  // person's says so.
  const editor = processes.start('zenity', ['--entry', '--title', 'editor', '--text', 'Notes']);
  await macpilot.ok('focus_element', { ref: await fieldOf(editor.pid) });
  await new Promise((resolve) => setTimeout(resolve, 700));
  xdotool('type', '--delay', '20', 'mm');
  await eventually('5 presses recorded', async () => {
    const count = Number(/, (\d+) press(?:es)? so far/.exec(await macpilot.ok('session_info'))?.[1]);
    return count >= 5 ? true : undefined;
  });
  const recording = (await callJson('stop_recording')).json as unknown as RecordingJson;
  expect(recording.steps).toEqual([{ tool: 'type_text', args: { text: 'mm' } }]);
  expect((recording.left_out ?? []).reduce((sum, part) => sum + part.count, 0)).toBe(3);
  await processes.stop(terminal.pid);
  await processes.stop(editor.pid);
});

test('stop_recording without a start is a clear error; a recording of one app leaves out clicks elsewhere', async () => {
  const none = await macpilot.call('stop_recording', {});
  expect(none.isError).toBe(true);
  expect(none.text).toMatch(/No recording is running/);
  expect(none.text).toMatch(/start_recording/);

  const pid = await startSearchDemo();
  const started = await callJson('start_recording', { app: String(pid) });
  expect(started.isError, started.text).toBe(false);
  // The screen's far corner (1280x800), where no window is: no element of gtk3-demo is there.
  expect(await macpilot.ok('element_at', { x: 1276, y: 796 })).toMatch(/No accessible element/);
  xdotool('mousemove', '1276', '796', 'click', '1');
  await eventually('the click recorded', async () =>
    /, 1 press so far/.test(await macpilot.ok('session_info')) ? true : undefined,
  );
  const stopped = (await callJson('stop_recording')).json as unknown as RecordingJson;
  expect(stopped.steps).toEqual([]);
  expect(stopped.left_out).toEqual([
    { why: expect.stringMatching(/no element of the recorded app/), count: 1 },
  ]);
  await processes.stop(pid);
});

/** Whether a lock key's light is on, as `xset q` tells. */
const lockOn = (name: 'Caps Lock' | 'Num Lock') =>
  new RegExp(`${name}:\\s+on`).test(execFileSync('xset', ['q'], { env, encoding: 'utf8' }));

test('keypad keys are recorded as Num Lock made them (digits, or the cursor keys they also are), and letters with Caps Lock as capitals', async () => {
  const pid = await startSearchDemo();
  const [x, y] = await fieldCentre(pid);
  expect([lockOn('Num Lock'), lockOn('Caps Lock')]).toEqual([false, false]);
  // Num Lock is on before the recording starts: the recorder reads it then.
  xdotool('key', 'Num_Lock');
  try {
    const started = await callJson('start_recording', { app: String(pid) });
    expect(started.isError, started.text).toBe(false);
    xdotool('mousemove', x, y, 'click', '1');
    xdotool('key', 'KP_End'); // with Num Lock on, "1"
    xdotool('key', 'Num_Lock');
    // Num Lock off: xdotool reaches the keypad's digits through the Num Lock key, held while it presses them.
    xdotool('key', 'KP_4', 'KP_2', 'KP_Add');
    xdotool('key', 'Caps_Lock');
    xdotool('key', 'a', 'b');
    xdotool('key', 'KP_Home'); // with Num Lock off, Home
    xdotool('key', 'x');
  } finally {
    if (lockOn('Num Lock')) xdotool('key', 'Num_Lock');
    if (lockOn('Caps Lock')) xdotool('key', 'Caps_Lock');
  }
  expect([lockOn('Num Lock'), lockOn('Caps Lock')]).toEqual([false, false]);
  const typed = 'X142+AB';
  expect(
    await eventually('the keys in the field', async () =>
      (await searchText(pid)) === typed ? true : undefined,
    ),
  ).toBe(true);
  const presses = 1 + 3 + 1 + 2 + 1 + 1; // the click, the keys; lock keys are not presses of a step
  await eventually(`${presses} presses recorded`, async () =>
    new RegExp(`, ${presses} presses so far`).test(await macpilot.ok('session_info')) ? true : undefined,
  );
  const stopped = await callJson('stop_recording');
  const recording = stopped.json as unknown as RecordingJson;
  expect(recording.left_out ?? [], stopped.text).toEqual([]);
  expect(recording.steps?.slice(1), stopped.text).toEqual([
    { tool: 'type_text', args: { text: '142+AB' } },
    { tool: 'press_key', args: { key: 'home' } },
    { tool: 'type_text', args: { text: 'X' } },
  ]);
  await processes.stop(pid);
});

test("the agent's own clicks and keys during a recording are not among the person's steps", async () => {
  const pid = await startSearchDemo();
  const [x, y] = await fieldCentre(pid);
  const started = await callJson('start_recording', { app: String(pid) });
  expect(started.isError, started.text).toBe(false);
  // The agent clicks the field with a real click, types (Shift held for "A") and presses keys, as the person
  // might; a key held by key_down is repeated by the server while it is down.
  await macpilot.ok('click', { x: Number(x), y: Number(y) });
  await macpilot.ok('type_text', { text: 'Agent' });
  await macpilot.ok('key_down', { key: 'a' });
  await new Promise((resolve) => setTimeout(resolve, 900));
  await macpilot.ok('key_up', { key: 'a' });
  await macpilot.ok('press_key', { key: 'backspace', modifiers: ['control'] });
  expect(await searchText(pid)).toBe('');
  xdotool('type', '--delay', '20', 'mine');
  expect(
    await eventually('the person typed', async () => ((await searchText(pid)) === 'mine' ? true : undefined)),
  ).toBe(true);
  await eventually('4 presses recorded', async () =>
    /, 4 presses so far/.test(await macpilot.ok('session_info')) ? true : undefined,
  );
  const stopped = (await callJson('stop_recording')).json as unknown as RecordingJson;
  expect(stopped.events).toBe(4);
  expect(stopped.steps).toEqual([{ tool: 'type_text', args: { text: 'mine' } }]);
  await processes.stop(pid);
});

test('a menu pick is recorded as click_menu_item, the click that opened the menu left out; replayed, it opens the same dialog', async () => {
  const startMousepad = async () => {
    const { pid } = processes.start('mousepad');
    await eventually('mousepad with its menu bar', async () => {
      const out = await macpilot.call('find_elements', { app: String(pid), role: 'menu', name: 'Help' });
      return !out.isError && /menu "Help"/.test(out.text) ? true : undefined;
    });
    return pid;
  };
  const aboutShown = (pid: number) =>
    eventually('the About dialog', async () => {
      const out = await macpilot.call('list_windows', { app: String(pid) });
      return /About/.test(out.text) ? true : undefined;
    });
  const first = await startMousepad();
  const [hx, hy] = await centreOf({ app: String(first), role: 'menu', name: 'Help' });
  await callJson('start_recording', { app: 'mousepad' });
  xdotool('mousemove', hx, hy, 'click', '1');
  const [ax, ay] = await eventually('the Help menu open', () =>
    centreOf({ app: String(first), role: 'menuitem', name: 'About' }).catch(() => undefined),
  );
  xdotool('mousemove', ax, ay, 'click', '1');
  await aboutShown(first);
  const stopped = (await callJson('stop_recording')).json as unknown as RecordingJson;
  expect(stopped.events).toBe(2);
  expect(stopped.steps).toEqual([
    { tool: 'click_menu_item', args: { app: 'mousepad', path: 'Help > About' } },
  ]);

  await processes.stop(first);
  const fresh = await startMousepad();
  expect((await macpilot.ok('list_windows', { app: String(fresh) })).includes('About')).toBe(false);
  const replay = await callJson('run_workflow', { steps: stopped.steps });
  expect(replay.isError, replay.text).toBe(false);
  await aboutShown(fresh);
  await processes.stop(fresh);
});

test('start_recording is refused for an app the policy denies, as if it did not run', async () => {
  const { pid } = processes.start('gtk3-demo', ['--run=search_entry']);
  const denying = await startMacpilot({ ...env, MACPILOT_DENY_APPS: 'gtk3-demo' });
  try {
    const refused = await eventually('the refusal', async () => {
      const out = await denying.call('start_recording', { app: String(pid) });
      return /hidden; only the person can change that/.test(out.text) ? out : undefined;
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^No running app matches "\d+"/);
    expect(await denying.ok('session_info')).toContain('recording: none');
  } finally {
    await denying.close();
    await processes.stop(pid);
  }
});

test('over HTTP, one recording per server, stopped only by the session that started it; it ends when that session ends', async () => {
  const server = await startHttp(env);
  try {
    const [first, second] = [await connect(server.url), await connect(server.url)];
    const call = async (client: typeof first.client, name: string) =>
      (await client.callTool({ name, arguments: {} })) as CallToolResult;
    expect((await call(first.client, 'start_recording')).isError).toBeFalsy();
    const busy = await call(second.client, 'start_recording');
    expect(busy.isError).toBe(true);
    expect(JSON.stringify(busy.content)).toMatch(/already running/);
    // What the first session's person types is not the second session's to take.
    const foreign = await call(second.client, 'stop_recording');
    expect(foreign.isError).toBe(true);
    expect(JSON.stringify(foreign.content)).toMatch(/belongs to another session/);
    await first.transport.terminateSession();
    await first.client.close();
    const started = await eventually('a new recording', async () => {
      const out = await call(second.client, 'start_recording');
      return out.isError ? undefined : out;
    });
    expect(started.structuredContent).toEqual({ state: 'started' });
    expect((await call(second.client, 'stop_recording')).isError).toBeFalsy();
    await second.client.close();
  } finally {
    await stopGroup(server.pid);
  }
});
