/**
 * windows.*: top-level windows as the window manager (EWMH) sees them, and the requests a pager makes of it.
 * Every operation waits (bounded) until the window manager has applied it, then answers with a fresh read.
 */
import {
  HelperErrorCode,
  type Params,
  type Result,
  type WindowInfo,
} from '../../../../helper-client/protocol.js';
import { appNamesByPid } from '../apps.js';
import { HelperFailure } from '../../errors.js';
import type { Rect, X11 } from './ewmh.js';
import type { Session } from '../session.js';
import { until } from '../until.js';
import { checkWindowId } from '../desk-checks.js';
import { onX11, sizeOnX11 } from './x11-range.js';

/** Openbox applies a request within a few ms; a loaded machine may need far longer. */
const APPLY_WAIT_MS = 2000;
const CLOSE_WAIT_MS = 2000;

/** What a listing shares among its windows: app names by pid, the active window. */
interface Known {
  appNames: Map<number, string>;
  active: number | undefined;
}

async function known(session: Session, x11: X11): Promise<Known> {
  const [appNames, active] = await Promise.all([appNamesByPid(session), x11.activeWindow()]);
  return { appNames, active };
}

async function windowInfo(x11: X11, id: number, facts: Known): Promise<WindowInfo | undefined> {
  const [frame, pids, title, className, minimized] = await Promise.all([
    x11.frameRect(id),
    x11.cardinals(id, '_NET_WM_PID'),
    x11.title(id),
    x11.className(id),
    x11.hasState(id, '_NET_WM_STATE_HIDDEN'),
  ]);
  if (!frame) return undefined; // it closed while we read it
  const pid = pids[0] ?? 0;
  return {
    id: String(id),
    pid,
    app: facts.appNames.get(pid) ?? className,
    title,
    bounds: frame,
    minimized,
    focused: facts.active === id,
  };
}

export async function listWindows(
  session: Session,
  params: Params<'windows.list'>,
): Promise<Result<'windows.list'>> {
  const x11 = await session.x11();
  const [ids, facts] = await Promise.all([x11.clientWindows(), known(session, x11)]);
  const infos = await Promise.all(ids.reverse().map((id) => windowInfo(x11, id, facts)));
  const windows = infos.filter(
    (w): w is WindowInfo =>
      w !== undefined &&
      (params.pid === undefined || w.pid === params.pid) &&
      (params.includeMinimized || !w.minimized),
  );
  return { windows };
}

/** A managed window's X id, or a failure that says there is none by that id. */
async function managed(x11: X11, id: string): Promise<number> {
  checkWindowId(id);
  const window = Number(id);
  if (!(await x11.clientWindows()).includes(window)) {
    throw new HelperFailure(
      HelperErrorCode.ElementGone,
      `no window has the id ${id}`,
      'the window closed, or the id is not a top-level window; list the windows for current ids',
    );
  }
  return window;
}

async function fresh(session: Session, x11: X11, window: number): Promise<WindowInfo> {
  const info = await windowInfo(x11, window, await known(session, x11));
  if (!info) {
    throw new HelperFailure(
      HelperErrorCode.ElementGone,
      `the window ${window} closed`,
      'list the windows for current ids',
    );
  }
  return info;
}

type Op = (x11: X11, window: number) => Promise<void>;

/**
 * Run an operation on a managed window, wait until `applied` holds (bounded), answer with a fresh read.
 * `animated`: the window manager may animate it (openbox moves a frame toward its icon as it minimizes and
 * back as it restores): the answer also waits until the frame stays put, so its place is where it rests.
 */
async function operate(
  session: Session,
  id: string,
  run: Op,
  applied: (x11: X11, window: number) => Promise<boolean>,
  signal: AbortSignal | undefined,
  animated = false,
): Promise<{ window: WindowInfo }> {
  const x11 = await session.x11();
  const window = await managed(x11, id);
  await run(x11, window);
  await until(() => applied(x11, window), APPLY_WAIT_MS, signal);
  if (animated) await frameAtRest(x11, window, signal);
  return { window: await fresh(session, x11, window) };
}

/** How long a frame must keep its place to be at rest. */
const AT_REST_MS = 80;

async function frameAtRest(x11: X11, window: number, signal: AbortSignal | undefined): Promise<void> {
  const place = async () => JSON.stringify(await x11.frameRect(window));
  let last = await place();
  let since = Date.now();
  await until(
    async () => {
      const now = await place();
      if (now !== last) [last, since] = [now, Date.now()];
      return Date.now() - since >= AT_REST_MS;
    },
    APPLY_WAIT_MS,
    signal,
  );
}

const isActive = async (x11: X11, window: number) => (await x11.activeWindow()) === window;

const frameIs = (wanted: Partial<Rect>) => async (x11: X11, window: number) => {
  const rect = await x11.frameRect(window);
  return (
    rect !== undefined && (Object.keys(wanted) as (keyof Rect)[]).every((key) => rect[key] === wanted[key])
  );
};

/** A minimized window is restored by its activation, animated: the answer gives the place its frame rests at. */
export async function focusWindow(session: Session, params: Params<'windows.focus'>, signal?: AbortSignal) {
  const x11 = await session.x11();
  const minimized = await x11.hasState(Number(params.id), '_NET_WM_STATE_HIDDEN').catch(() => false);
  if (minimized) return restoreWindow(session, params, signal);
  return operate(session, params.id, (x11, w) => x11.activate(w), isActive, signal);
}

export async function moveWindow(session: Session, params: Params<'windows.move'>, signal?: AbortSignal) {
  const to = onX11("window's corner", params.to);
  return operate(session, params.id, (x11, w) => x11.moveResize(w, to), frameIs(to), signal);
}

export async function resizeWindow(session: Session, params: Params<'windows.resize'>, signal?: AbortSignal) {
  sizeOnX11(params.width, params.height);
  const size = { width: params.width, height: params.height };
  return operate(session, params.id, (x11, w) => x11.moveResize(w, size), frameIs(size), signal);
}

export const minimizeWindow = (session: Session, params: Params<'windows.minimize'>, signal?: AbortSignal) =>
  operate(
    session,
    params.id,
    (x11, w) => x11.iconify(w),
    (x11, w) => x11.hasState(w, '_NET_WM_STATE_HIDDEN'),
    signal,
    true,
  );

/** Activating an iconified window is how EWMH pagers restore it. */
export const restoreWindow = (session: Session, params: Params<'windows.restore'>, signal?: AbortSignal) =>
  operate(
    session,
    params.id,
    (x11, w) => x11.activate(w),
    async (x11, w) => !(await x11.hasState(w, '_NET_WM_STATE_HIDDEN')) && (await isActive(x11, w)),
    signal,
    true,
  );

export async function closeWindow(
  session: Session,
  params: Params<'windows.close'>,
  signal?: AbortSignal,
): Promise<Result<'windows.close'>> {
  const x11 = await session.x11();
  const window = await managed(x11, params.id);
  await x11.closeWindow(window);
  const closed = await until(
    async () => !(await x11.clientWindows()).includes(window),
    CLOSE_WAIT_MS,
    signal,
  );
  return { closed };
}
