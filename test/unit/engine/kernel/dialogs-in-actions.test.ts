/** Keys are held back from an app while it runs a dialog inside the action that opened it. */
import { expect, test } from 'vitest';
import { DialogsInActions, modalOpened } from '../../../../src/engine/kernel/dialogs-in-actions.js';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import type { Change } from '../../../../src/engine/kernel/results.js';
import type { Walked } from '../../../../src/engine/kernel/tree.js';
import type { MethodName, Result, WindowInfo } from '../../../../src/helper-client/protocol.js';

const bounds = { x: 0, y: 0, width: 10, height: 10 };
const window = (pid: number, title: string, focused: boolean): WindowInfo => ({
  id: String(pid * 10 + title.length),
  pid,
  app: 'gtk3-demo',
  title,
  bounds,
  minimized: false,
  focused,
});
const portWith = (windows: () => WindowInfo[]): HelperPort => ({
  call: async <M extends MethodName>(method: M) => {
    if (method !== 'windows.list') throw new Error(`unexpected ${method}`);
    return { windows: windows() } as Result<M>;
  },
});
const opened = (name: string, states: string[]): Change => ({
  kind: 'opened',
  node: { info: { name, states } } as unknown as Walked,
});

test('a modal dialog an action opened holds back keys to its app while it is open and focused, not after', async () => {
  const dialogs = new DialogsInActions();
  const app = { pid: 42, name: 'gtk3-demo' };
  expect(modalOpened([opened('Settings', [])])).toBeUndefined();
  const title = modalOpened([opened('Settings', []), opened('Interactive Dialog', ['modal', 'active'])]);
  expect(title).toBe('Interactive Dialog');
  dialogs.note(app, 'Interactive Dialog');
  let windows = [window(42, 'Interactive Dialog', true), window(42, 'Main', false)];
  const port = portWith(() => windows);
  await expect(dialogs.refuseKeys(port)).rejects.toMatchObject({ kind: 'keys_would_hang_app' });
  // Another app in front takes its keys.
  windows = [window(42, 'Interactive Dialog', false), window(7, 'Editor', true)];
  await expect(dialogs.refuseKeys(port)).resolves.toBeUndefined();
  // Closed: keys go to the app again, and it is forgotten.
  windows = [window(42, 'Main', true)];
  await expect(dialogs.refuseKeys(port)).resolves.toBeUndefined();
  windows = [window(42, 'Interactive Dialog', true)];
  await expect(dialogs.refuseKeys(port)).resolves.toBeUndefined();
});

test('with no such dialog, keys cost no call', async () => {
  const port = portWith(() => {
    throw new Error('asked');
  });
  await expect(new DialogsInActions().refuseKeys(port)).resolves.toBeUndefined();
});
