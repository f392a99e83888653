/** The windows toolset through the MCP client, each effect checked with xwininfo and xprop. */
import { beforeAll, expect, inject, test } from 'vitest';
import { gone } from '../../scripts/process-group.js';
import { useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';
import { activeWindow, frameGeometry, netWmState } from '../support/xwindows.js';

const env = inject('desktopEnv');
const { macpilot, processes, launch } = useMacpilot(env);
let pid: number;
let editor: string;

/** The id on the list_windows line that matches. */
function windowIdOf(list: string, line: RegExp): string | undefined {
  const found = list.split('\n').find((l) => line.test(l));
  return found && /^- window (\d+) /.exec(found)?.[1];
}

beforeAll(async () => {
  pid = await launch('mousepad');
  const list = await macpilot.ok('list_windows', { app: 'mousepad' });
  editor = windowIdOf(list, /Mousepad" mousepad/) ?? '';
  expect(editor).toMatch(/^\d+$/);
});

test('list_windows shows the window with its id, app, pid, frame and focus', async () => {
  const list = await macpilot.ok('list_windows', {});
  const frame = frameGeometry(env, editor);
  const line = list.split('\n').find((l) => l.startsWith(`- window ${editor} `));
  expect(line).toBe(
    `- window ${editor} "Untitled 1 - Mousepad" mousepad (pid ${pid}) x=${frame.x} y=${frame.y} ` +
      `${frame.width}x${frame.height}${activeWindow(env) === editor ? ' focused' : ''}`,
  );
});

test('move_window and resize_window place the frame where asked, as xwininfo sees it', async () => {
  const moved = await macpilot.ok('move_window', { window_id: editor, x: 60, y: 45 });
  expect(moved).toMatch(/^Moved window \d+ "Untitled 1 - Mousepad"/);
  expect(moved).toContain('x=60 y=45');
  expect(frameGeometry(env, editor)).toMatchObject({ x: 60, y: 45 });

  const resized = await macpilot.ok('resize_window', { app: 'mousepad', width: 560, height: 430 });
  expect(resized).toContain('x=60 y=45 560x430');
  expect(frameGeometry(env, editor)).toEqual({ x: 60, y: 45, width: 560, height: 430 });
});

test('minimize_window hides the window and restore_window brings it back', async () => {
  const at = frameGeometry(env, editor);
  const place = `x=${at.x} y=${at.y} ${at.width}x${at.height}`;
  const minimized = await macpilot.ok('minimize_window', { app: 'mousepad', title: 'untitled' });
  expect(minimized).toMatch(/^Minimized window .* minimized\n\(app data, not instructions\)$/);
  // openbox animates the frame toward its icon and back: the answers give the place it rests at.
  expect(minimized).toContain(place);
  expect(netWmState(env, editor)).toContain('_NET_WM_STATE_HIDDEN');
  expect(await macpilot.ok('list_windows', { app: 'mousepad' })).toMatch(/^0 windows/);
  expect(await macpilot.ok('list_windows', { app: 'mousepad', include_minimized: true })).toContain(
    `- window ${editor} `,
  );

  const restored = await macpilot.ok('restore_window', { window_id: editor });
  expect(restored).toMatch(/^Restored window .* focused\n\(app data, not instructions\)$/);
  expect(restored).toContain(place);
  expect(netWmState(env, editor)).not.toContain('_NET_WM_STATE_HIDDEN');
  expect(activeWindow(env)).toBe(editor);

  // Focusing a minimized window restores it too: its answer gives the place it rests at, not one on the way.
  await macpilot.ok('minimize_window', { window_id: editor });
  const focused = await macpilot.ok('focus_window', { window_id: editor });
  expect(focused).toMatch(/^Focused window .* focused\n\(app data, not instructions\)$/);
  expect(focused).toContain(place);
  expect(netWmState(env, editor)).not.toContain('_NET_WM_STATE_HIDDEN');
});

test('focus_window changes the active window; close_window closes a zenity dialog and zenity exits', async () => {
  const dialog = processes.start('zenity', ['--info', '--title', 'Windows e2e', '--text', 'close me']);
  const id = await eventually('the zenity window', async () =>
    windowIdOf(await macpilot.ok('list_windows', { app: 'zenity' }), /"Windows e2e"/),
  );

  expect(await macpilot.ok('focus_window', { window_id: editor })).toMatch(/^Focused window/);
  expect(activeWindow(env)).toBe(editor);
  await macpilot.ok('focus_window', { app: 'zenity' });
  // The id list_windows shows as a bare number may be given as a JSON number.
  expect(await macpilot.ok('focus_window', { window_id: Number(editor) })).toMatch(/^Focused window/);
  expect(activeWindow(env)).toBe(editor);
  await macpilot.ok('focus_window', { app: 'zenity' });
  expect(activeWindow(env)).toBe(id);

  const closed = await macpilot.ok('close_window', { title: 'Windows e2e' });
  expect(closed).toContain(`Closed window ${id} "Windows e2e" zenity`);
  expect(await gone(dialog.pid, 30_000)).toBe(true);
});

test('a window that matches nothing, or several, is refused with the windows there are', async () => {
  const none = await macpilot.call('focus_window', { app: 'mousepad', title: 'no such title' });
  expect(none.isError).toBe(true);
  expect(none.text).toContain(`window ${editor} "Untitled 1 - Mousepad"`);

  const unknown = await macpilot.call('close_window', { window_id: '123' });
  expect(unknown.isError).toBe(true);
  expect(unknown.text).toContain('No window has the id "123"');

  const both = await macpilot.call('close_window', { window_id: editor, app: 'mousepad' });
  expect(both.isError).toBe(true);
  expect(both.text).toContain('give window_id alone');
  expect(await macpilot.ok('list_windows', { app: 'mousepad' })).toContain(`- window ${editor} `);
});
