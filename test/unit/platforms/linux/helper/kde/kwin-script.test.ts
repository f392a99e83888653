/**
 * The scripts macpilot sends KWin, run here against KWin 6's scripting API as documented (workspace.stackingOrder,
 * activeWindow, screens and screenOrder), which Debian 12 cannot run: the KDE suite runs them on KWin 5.27. What
 * each script answers, what it changes, and that an id is only ever data.
 */
import { runInNewContext } from 'node:vm';
import { expect, test } from 'vitest';
import {
  ANSWER_IFACE,
  ANSWER_PATH,
  scriptFor,
} from '../../../../../../src/platforms/linux/helper/kde/kwin-shell.js';

const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

function kwin6() {
  const window = (id: string, caption: string, pid: number, extra: object = {}) => ({
    internalId: { toString: () => id },
    caption,
    pid,
    resourceClass: caption.toLowerCase(),
    frameGeometry: rect(10, 20, 300, 200),
    bufferGeometry: rect(0, 10, 320, 220),
    minimized: false,
    normalWindow: true,
    dialog: false,
    closed: false,
    closeWindow() {
      this.closed = true;
    },
    ...extra,
  });
  const bottom = window('{00000000-0000-0000-0000-00000000000a}', 'Bottom', 11);
  const top = window('{00000000-0000-0000-0000-00000000000b}', 'Top', 12, { windowId: 0x400001 });
  const panel = window('{00000000-0000-0000-0000-00000000000c}', 'Panel', 13, { normalWindow: false });
  const left = {
    name: 'DP-1',
    manufacturer: 'Acme',
    model: 'View',
    geometry: rect(0, 0, 1280, 800),
    devicePixelRatio: 1,
  };
  const right = {
    name: 'DP-2',
    manufacturer: '',
    model: '',
    geometry: rect(1280, 0, 1920, 1080),
    devicePixelRatio: 1.5,
  };
  const workspace = {
    stackingOrder: [bottom, panel, top],
    activeWindow: top as object | null,
    screens: [left, right],
    screenOrder: [right, left],
  };
  return { workspace, bottom, top };
}

/** Runs the script of `question` as KWin would, and returns what it called back with. */
function run(workspace: object, question: Parameters<typeof scriptFor>[0], args: object = {}) {
  const calls: unknown[][] = [];
  runInNewContext(scriptFor(question, args, ':1.42', '7-1'), {
    workspace,
    callDBus: (...call: unknown[]) => calls.push(call),
  });
  expect(calls).toHaveLength(1);
  const [service, path, iface, member, token, json] = calls[0] ?? [];
  expect([service, path, iface, member, token]).toEqual([
    ':1.42',
    ANSWER_PATH,
    ANSWER_IFACE,
    'Answer',
    '7-1',
  ]);
  return JSON.parse(String(json)) as { value?: unknown; error?: string };
}

test('windows: the stacking order bottom first, normal windows and dialogs only, the active one focused, X11 ones marked', () => {
  const { workspace } = kwin6();
  const { value } = run(workspace, 'windows');
  expect(value).toEqual([
    expect.objectContaining({
      title: 'Bottom',
      pid: 11,
      focused: false,
      xwayland: false,
      frame: rect(10, 20, 300, 200),
      buffer: rect(0, 10, 320, 220),
    }),
    expect.objectContaining({
      id: '{00000000-0000-0000-0000-00000000000b}',
      title: 'Top',
      focused: true,
      xwayland: true,
    }),
  ]);
});

test('screens: in the order the person gave them (the first is the primary), with maker and scale', () => {
  const { workspace } = kwin6();
  expect(run(workspace, 'screens').value).toEqual([
    { name: 'DP-2', maker: '', geometry: rect(1280, 0, 1920, 1080), scale: 1.5 },
    { name: 'DP-1', maker: 'Acme View', geometry: rect(0, 0, 1280, 800), scale: 1 },
  ]);
});

test('activate restores a minimized window and makes it the active one; moveResize assigns a whole new frame', () => {
  const { workspace, bottom } = kwin6();
  bottom.minimized = true;
  run(workspace, 'activate', { id: '{00000000-0000-0000-0000-00000000000a}' });
  expect(bottom.minimized).toBe(false);
  expect(workspace.activeWindow).toBe(bottom);
  const before = bottom.frameGeometry;
  run(workspace, 'moveResize', { id: '{00000000-0000-0000-0000-00000000000a}', ...rect(5, 6, 700, 500) });
  expect(bottom.frameGeometry).toEqual(rect(5, 6, 700, 500));
  expect(bottom.frameGeometry).not.toBe(before);
});

test('minimize and close act on the window named, and on no other', () => {
  const { workspace, bottom, top } = kwin6();
  run(workspace, 'minimize', { id: '{00000000-0000-0000-0000-00000000000b}' });
  run(workspace, 'close', { id: '{00000000-0000-0000-0000-00000000000a}' });
  expect([bottom.minimized, top.minimized, bottom.closed, top.closed]).toEqual([false, true, true, false]);
});

test('an id that names no window is an error answer; an id full of quotes and line separators stays data', () => {
  const { workspace, bottom } = kwin6();
  expect(run(workspace, 'close', { id: '{00000000-0000-0000-0000-0000000000ff}' }).error).toMatch(
    /no window/,
  );
  const hostile = `'); bottom.closed = true; ("\u2028\u2029\n`;
  expect(run(workspace, 'close', { id: hostile }).error).toMatch(/no window/);
  expect(bottom.closed).toBe(false);
});
