/**
 * windows.* on a RemoteDesktop desk, through the desktop's shell (GNOME: macpilot's extension; KDE Plasma: a KWin
 * script): its list (bottom of the stacking first), and a call by window id for each operation. Every operation waits (bounded) until the list shows it
 * applied, then answers with a fresh read.
 */
import type { Params, Result, WindowInfo } from '../../../../helper-client/protocol.js';
import { appNamesByPid } from '../apps.js';
import { existingWindow } from '../desk-checks.js';
import type { Session } from '../session.js';
import { until } from '../until.js';
import type { Shell, ShellWindow } from './shell.js';

const APPLY_WAIT_MS = 2000;

function info(window: ShellWindow, appNames: Map<number, string>): WindowInfo {
  return {
    id: window.id,
    pid: window.pid,
    app: appNames.get(window.pid) ?? window.wmClass,
    title: window.title,
    bounds: window.frame,
    minimized: window.minimized,
    focused: window.focused,
  };
}

export async function listWindows(
  session: Session,
  params: Params<'windows.list'>,
): Promise<Result<'windows.list'>> {
  const { shell } = await session.remoteDesk();
  const [listed, names] = await Promise.all([shell.windows(), appNamesByPid(session)]);
  // Front to back, as the other desks list them.
  const windows = [...listed]
    .reverse()
    .map((w) => info(w, names))
    .filter(
      (w) => (params.pid === undefined || w.pid === params.pid) && (params.includeMinimized || !w.minimized),
    );
  return { windows };
}

const find = async (shell: Shell, id: string) => (await shell.windows()).find((w) => w.id === id);

const existing = (shell: Shell, id: string): Promise<ShellWindow> =>
  existingWindow(id, () => find(shell, id));

/** Asks the shell to `act` on the window as listed, then waits until it is `applied`. */
async function operate(
  session: Session,
  id: string,
  act: (shell: Shell, window: ShellWindow) => Promise<void>,
  applied: (window: ShellWindow) => boolean,
  signal: AbortSignal | undefined,
): Promise<{ window: WindowInfo }> {
  const { shell } = await session.remoteDesk();
  await act(shell, await existing(shell, id));
  await until(
    async () => {
      const now = await find(shell, id);
      return now !== undefined && applied(now);
    },
    APPLY_WAIT_MS,
    signal,
  );
  return { window: info(await existing(shell, id), await appNamesByPid(session)) };
}

const activate = (shell: Shell, window: ShellWindow) => shell.activate(window.id);

export const focusWindow = (session: Session, params: Params<'windows.focus'>, signal?: AbortSignal) =>
  operate(session, params.id, activate, (w) => w.focused, signal);

export function moveWindow(session: Session, params: Params<'windows.move'>, signal?: AbortSignal) {
  const x = Math.round(params.to.x);
  const y = Math.round(params.to.y);
  return operate(
    session,
    params.id,
    (shell, { id, frame }) => shell.moveResize(id, { x, y, width: frame.width, height: frame.height }),
    (w) => w.frame.x === x && w.frame.y === y,
    signal,
  );
}

export function resizeWindow(session: Session, params: Params<'windows.resize'>, signal?: AbortSignal) {
  return operate(
    session,
    params.id,
    (shell, { id, frame }) =>
      shell.moveResize(id, { x: frame.x, y: frame.y, width: params.width, height: params.height }),
    (w) => w.frame.width === params.width && w.frame.height === params.height,
    signal,
  );
}

export const minimizeWindow = (session: Session, params: Params<'windows.minimize'>, signal?: AbortSignal) =>
  operate(
    session,
    params.id,
    (shell, w) => shell.minimize(w.id),
    (w) => w.minimized,
    signal,
  );

export const restoreWindow = (session: Session, params: Params<'windows.restore'>, signal?: AbortSignal) =>
  operate(session, params.id, activate, (w) => !w.minimized && w.focused, signal);

export async function closeWindow(
  session: Session,
  params: Params<'windows.close'>,
  signal?: AbortSignal,
): Promise<Result<'windows.close'>> {
  const { shell } = await session.remoteDesk();
  await shell.close((await existing(shell, params.id)).id);
  const closed = await until(async () => (await find(shell, params.id)) === undefined, APPLY_WAIT_MS, signal);
  return { closed };
}
