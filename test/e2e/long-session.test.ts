/**
 * A long session across apps: what one server has seen and done must not hide what a new app shows. Found by
 * hand: after any action in mousepad, a gnome-calculator launched later showed only its window for seconds in
 * the first server's snapshots while a fresh server saw its keypad.
 */
import { afterAll, expect, inject, test } from 'vitest';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';
import { killClipboardOwner } from '../support/xwindows.js';

const env = inject('desktopEnv');
const { macpilot, launch, start } = useMacpilot(env);

test('a snapshot of an app launched after an action in another app shows what a fresh server sees', async () => {
  await launch('mousepad');
  const editors = await eventually('the mousepad editor', async () => {
    const out = await macpilot.call('find_elements', { app: 'mousepad', role: 'textbox' });
    return !out.isError && /multiline/.test(out.text) ? out.text : undefined;
  });
  await macpilot.ok('type_text', { ref: refOf(editors, /multiline/), text: 'typed before the calculator' });

  await launch('Calculator', { timeout_ms: 30_000 });
  const fresh = await startMacpilot(env);
  afterAll(() => fresh.close());
  await eventually('the keypad, seen by a fresh server', async () => {
    const out = await fresh.call('snapshot_ui', { app: 'gnome-calculator' });
    return !out.isError && out.text.includes('button "7"') ? true : undefined;
  });
  const seen = await macpilot.ok('snapshot_ui', { app: 'gnome-calculator' });
  expect(seen).toContain('button "7"');
});

test('a coordinate on no display (and beyond what X11 carries) is refused with the reason, and the session goes on', async () => {
  const refused = await macpilot.call('move_mouse', { x: -37473, y: 0 });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('The point -37473,0 is on no display');
  const dragged = await macpilot.call('drag', { from: { x: 10, y: 10 }, to: { x: 99_999, y: 10 } });
  expect(dragged.isError).toBe(true);
  // Each of these needs the helper's X connection; a half-written request used to leave it wedged.
  for (const name of ['get_clipboard', 'clear_clipboard', 'list_windows', 'list_apps']) {
    const answer = await macpilot.client.callTool({ name, arguments: {} }, undefined, { timeout: 5_000 });
    expect(answer.isError, `${name}: ${JSON.stringify(answer.content)}`).toBeFalsy();
  }
  const moved = await macpilot.ok('move_mouse', { x: 200, y: 150 });
  expect(moved).toContain('Moved the pointer to 200,150');
});

test('an app that stopped answering fails fast after its first timeout, others stay usable, and it recovers by itself', async () => {
  const pid = await start('gtk3-demo', 'Application Class');
  const app = String(pid);
  process.kill(pid, 'SIGSTOP');
  try {
    const first = await macpilot.call('snapshot_ui', { app });
    expect(first.isError).toBe(true);
    expect(first.text).toContain('did not answer');
    // Later calls to it are refused at once, saying so, instead of each waiting out the helper's 5 s again.
    for (const [name, args] of [
      ['snapshot_ui', { app }],
      ['find_elements', { app, role: 'button' }],
    ] as const) {
      const refused = await macpilot.call(name, args);
      expect(refused.isError, refused.text).toBe(true);
      expect(refused.text).toMatch(
        /is busy: it left a call unanswered for 5 s.*waiting for it to answer again/,
      );
      expect(refused.text).toContain(`gtk3-demo (pid ${pid}) is busy`);
    }
    // The other apps answer meanwhile, and listings still name the silent app.
    expect(await macpilot.ok('snapshot_ui', { app: 'gnome-calculator' })).toContain('button "7"');
    expect(await macpilot.ok('list_apps')).toContain('gtk3-demo');
    expect(await macpilot.ok('get_clipboard')).toBeDefined();
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  // No call has to reach it first: the helper asks it again by itself, and it is usable once it answers.
  const back = await eventually(
    'gtk3-demo answering again',
    async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return out.isError ? undefined : out.text;
    },
    45_000,
  );
  expect(back).toContain('Application Class');
  const found = await macpilot.ok('find_elements', { app, name: 'Application Class' });
  expect(found).toContain('Application Class');
}, 120_000);

test('a helper whose X connection the server closed is replaced, and the session goes on', async () => {
  const helperPid = async () => /pid (\d+)/.exec(await macpilot.ok('session_info'))?.[1];
  await macpilot.ok('set_clipboard', { text: 'owned by the helper' });
  const before = await helperPid();
  await killClipboardOwner(env);
  // A call that reaches the helper before it noticed fails, once, saying why; the helper then exits.
  const first = await macpilot.call('list_windows');
  if (first.isError) expect(first.text).toContain('lost its connection to the desktop');
  // Each needs the X connection; one left closed used to make every such call wait out the 15 s limit.
  for (const name of ['list_windows', 'get_clipboard', 'list_apps']) {
    const answer = await macpilot.client.callTool({ name, arguments: {} }, undefined, { timeout: 30_000 });
    expect(answer.isError, `${name}: ${JSON.stringify(answer.content)}`).toBeFalsy();
  }
  expect(await helperPid()).not.toBe(before);
  await macpilot.ok('set_clipboard', { text: 'owned by the new helper' });
  expect(await macpilot.ok('get_clipboard')).toContain('owned by the new helper');
});

test('a window position or size X11 cannot carry is refused with the reason, and the window stays as it was', async () => {
  await launch('mousepad');
  const window = { app: 'mousepad' };
  const before = await macpilot.ok('list_windows', window);
  const resized = await macpilot.call('resize_window', { ...window, width: 40_000, height: 300 });
  expect(resized.isError).toBe(true);
  expect(resized.text).toContain('beyond what X11 can address');
  const moved = await macpilot.call('move_window', { ...window, x: -40_000, y: 0 });
  expect(moved.isError).toBe(true);
  expect(moved.text).toContain('beyond what X11 can address');
  expect(await macpilot.ok('list_windows', window)).toBe(before);
  const shot = await macpilot.call('take_screenshot', {
    region: { x: 30_000, y: 0, width: 90_000, height: 10 },
  });
  expect(shot.isError).toBe(true);
  expect(shot.text).toContain('is on no display');
  expect(await macpilot.ok('resize_window', { ...window, width: 640, height: 480 })).toContain('640x480');
});
