/**
 * windows.* in a GNOME session, through macpilot's GNOME Shell extension: its list (bottom of the stacking
 * first), and a call by window id for each operation. Every operation waits (bounded) until the list shows it
 * applied, then answers with a fresh read.
 */
import type { Params, Result, WindowInfo } from '../../../../helper-client/protocol.js';
import { appNamesByPid } from '../apps.js';
import { existingWindow } from '../desk-checks.js';
import type { Session } from '../session.js';
import { until } from '../until.js';
import type { GnomeDesk, GnomeWindow } from './gnome-desk.js';

const APPLY_WAIT_MS = 2000;

function info(window: GnomeWindow, appNames: Map<number, string>): WindowInfo {
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
  const desk = await session.gnome();
  const [listed, names] = await Promise.all([desk.windows(), appNamesByPid(session)]);
  // Front to back, as the other desks list them.
  const windows = [...listed]
    .reverse()
    .map((w) => info(w, names))
    .filter(
      (w) => (params.pid === undefined || w.pid === params.pid) && (params.includeMinimized || !w.minimized),
    );
  return { windows };
}

const find = async (desk: GnomeDesk, id: string) => (await desk.windows()).find((w) => w.id === id);

const existing = (desk: GnomeDesk, id: string): Promise<GnomeWindow> =>
  existingWindow(id, () => find(desk, id));

/** Calls the extension's `member` about the window (its arguments built from the window as listed), then waits until it is `applied`. */
async function operate(
  session: Session,
  id: string,
  call: (window: GnomeWindow) => [member: string, signature: string, body: unknown[]],
  applied: (window: GnomeWindow) => boolean,
  signal: AbortSignal | undefined,
): Promise<{ window: WindowInfo }> {
  const desk = await session.gnome();
  await desk.windowsCall(...call(await existing(desk, id)));
  await until(
    async () => {
      const now = await find(desk, id);
      return now !== undefined && applied(now);
    },
    APPLY_WAIT_MS,
    signal,
  );
  return { window: info(await existing(desk, id), await appNamesByPid(session)) };
}

const byId =
  (member: string) =>
  (window: GnomeWindow): [string, string, unknown[]] => [member, 't', [BigInt(window.id)]];

export const focusWindow = (session: Session, params: Params<'windows.focus'>, signal?: AbortSignal) =>
  operate(session, params.id, byId('Activate'), (w) => w.focused, signal);

export function moveWindow(session: Session, params: Params<'windows.move'>, signal?: AbortSignal) {
  const x = Math.round(params.to.x);
  const y = Math.round(params.to.y);
  return operate(
    session,
    params.id,
    ({ id, frame }) => ['MoveResize', 'tiiii', [BigInt(id), x, y, frame.width, frame.height]],
    (w) => w.frame.x === x && w.frame.y === y,
    signal,
  );
}

export function resizeWindow(session: Session, params: Params<'windows.resize'>, signal?: AbortSignal) {
  return operate(
    session,
    params.id,
    ({ id, frame }) => ['MoveResize', 'tiiii', [BigInt(id), frame.x, frame.y, params.width, params.height]],
    (w) => w.frame.width === params.width && w.frame.height === params.height,
    signal,
  );
}

export const minimizeWindow = (session: Session, params: Params<'windows.minimize'>, signal?: AbortSignal) =>
  operate(session, params.id, byId('Minimize'), (w) => w.minimized, signal);

export const restoreWindow = (session: Session, params: Params<'windows.restore'>, signal?: AbortSignal) =>
  operate(session, params.id, byId('Activate'), (w) => !w.minimized && w.focused, signal);

export async function closeWindow(
  session: Session,
  params: Params<'windows.close'>,
  signal?: AbortSignal,
): Promise<Result<'windows.close'>> {
  const desk = await session.gnome();
  await desk.windowsCall(...byId('Close')(await existing(desk, params.id)));
  const closed = await until(async () => (await find(desk, params.id)) === undefined, APPLY_WAIT_MS, signal);
  return { closed };
}
