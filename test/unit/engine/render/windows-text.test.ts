/** A window no app claims (a window manager's own prompt) is listed as such, never with a blank app name. */
import { expect, test } from 'vitest';
import type { WindowsResult } from '../../../../src/engine/kernel/results.js';
import { renderText } from '../../../../src/engine/render/text.js';

const bounds = { x: 444, y: 355, width: 392, height: 89 };
const prompt = { id: '2098156', pid: 0, app: '', title: 'Openbox', bounds, minimized: false, focused: false };
const editor = { ...prompt, id: '77', pid: 4431, app: 'mousepad', title: 'notes.txt - Mousepad' };
const result = (windows: WindowsResult['windows'], app?: string): WindowsResult => ({
  kind: 'windows',
  windows,
  ...(app === undefined ? {} : { app }),
  includeMinimized: false,
  appsWithWindows: ['mousepad'],
  hidden: 0,
  hiddenBy: [],
  offLimits: [],
});

test('a window without an app or a pid says so; one with an app names it', () => {
  const text = renderText(result([prompt, editor]));
  expect(text).toContain('- window 2098156 "Openbox" (no app or pid known) x=444 y=355 392x89');
  expect(text).not.toMatch(/" +\(pid 0\)/);
  expect(text).toContain('"notes.txt - Mousepad" mousepad (pid 4431)');
});
