/** windows.* on openbox: listing, moving, resizing, minimizing, restoring, focusing and closing real windows. */
import { beforeAll, expect, inject, test } from 'vitest';
import { gone } from '../../scripts/process-group.js';
import { HelperErrorCode, type WindowInfo } from '../../src/helper-client/protocol.js';
import { eventually } from '../support/text.js';
import { activeWindow, clientList, frameGeometry, netWmState } from '../support/xwindows.js';
import { failsWith, useHelper } from './helper.js';

const env = inject('desktopEnv');
const { helper, processes, start } = useHelper(env);
let editorPid: number;
let editor: WindowInfo;

async function windowOf(pid: number, includeMinimized = false): Promise<WindowInfo> {
  return eventually(`a window of pid ${pid}`, async () => {
    const { windows } = await helper.call('windows.list', { pid, includeMinimized });
    return windows[0];
  });
}

beforeAll(async () => {
  editorPid = (await start('mousepad')).pid;
  editor = await windowOf(editorPid);
});

test('windows.list names each managed window with its pid, app, title, frame and focus', async () => {
  const { windows } = await helper.call('windows.list', { includeMinimized: true });
  expect(windows.map((w) => w.id).sort()).toEqual(clientList(env).sort());
  expect(editor).toMatchObject({
    pid: editorPid,
    app: 'mousepad',
    title: expect.stringContaining('Mousepad'),
    minimized: false,
    bounds: frameGeometry(env, editor.id),
  });
  const focused = windows.filter((w) => w.focused).map((w) => w.id);
  expect(focused).toEqual([activeWindow(env)]);
});

test('windows.move puts the frame where asked, windows.resize sizes the frame', async () => {
  const moved = await helper.call('windows.move', { id: editor.id, to: { x: 40, y: 30 } });
  expect(moved.window.bounds).toMatchObject({ x: 40, y: 30 });
  expect(frameGeometry(env, editor.id)).toMatchObject({ x: 40, y: 30 });

  const resized = await helper.call('windows.resize', { id: editor.id, width: 520, height: 410 });
  expect(resized.window.bounds).toEqual({ x: 40, y: 30, width: 520, height: 410 });
  expect(frameGeometry(env, editor.id)).toEqual({ x: 40, y: 30, width: 520, height: 410 });
});

test('windows.minimize hides the window; windows.restore shows and activates it', async () => {
  const minimized = await helper.call('windows.minimize', { id: editor.id });
  expect(minimized.window.minimized).toBe(true);
  expect(netWmState(env, editor.id)).toContain('_NET_WM_STATE_HIDDEN');
  const visible = await helper.call('windows.list', { pid: editorPid, includeMinimized: false });
  expect(visible.windows).toEqual([]);

  const restored = await helper.call('windows.restore', { id: editor.id });
  expect(restored.window).toMatchObject({ minimized: false, focused: true });
  expect(netWmState(env, editor.id)).not.toContain('_NET_WM_STATE_HIDDEN');
  expect(activeWindow(env)).toBe(editor.id);
});

test('windows.focus makes another window active; windows.close closes a dialog and its process ends', async () => {
  const dialog = processes.start('zenity', ['--info', '--text', 'windows contract']);
  const info = await windowOf(dialog.pid);
  expect(info.app).toBe('zenity');

  const focused = await helper.call('windows.focus', { id: editor.id });
  expect(focused.window.focused).toBe(true);
  expect(activeWindow(env)).toBe(editor.id);
  expect((await helper.call('windows.focus', { id: info.id })).window.focused).toBe(true);
  expect(activeWindow(env)).toBe(info.id);

  expect(await helper.call('windows.close', { id: info.id })).toEqual({ closed: true });
  expect(await gone(dialog.pid, 30_000)).toBe(true);
  expect(clientList(env)).not.toContain(info.id);
});

test('an unknown window id is ElementGone; a malformed one is InvalidParams', async () => {
  const unknown = await failsWith(helper.call('windows.focus', { id: '12345' }), HelperErrorCode.ElementGone);
  expect(unknown.message).toContain('12345');
  await failsWith(helper.call('windows.minimize', { id: '0x400003' }), HelperErrorCode.InvalidParams);
});
