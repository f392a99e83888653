/**
 * What the accessibility side asks of the display server, the same on X11 and on sway: where an app's windows
 * are, which app is in front, bringing a window forward, and a click. Under Wayland every app reports its
 * elements' extents relative to its window (GTK4 does on X11 too): the window's place on screen comes from
 * here.
 */
import type { Params, Point } from '../../../helper-client/protocol.js';
import type { Rect } from './x11/ewmh.js';
import * as x11Input from './x11/input.js';
import { type AppFacts, onWayland, remoteKind, type Session } from './session.js';
import { until } from './until.js';
import * as swayInput from './wayland/sway-input.js';
import * as remoteInput from './remote/remote-input.js';
import { contentRect } from './wayland/sway-ipc.js';

/** How long a window manager gets to bring a window forward. */
const RAISE_MS = 1000;

/** A top-level window of an app: its title and where its content is on screen. */
export interface Placed {
  title: string;
  rect: Rect | undefined;
}

/**
 * The window that shows a frame: the pid's only window, else the one titled like the frame (of several so titled,
 * the one whose rect holds `at`, a point of the frame's), else the first.
 */
export function windowForFrame<W extends { title: string }>(
  windows: W[],
  frameName: string,
  at?: { point: Point; rect: (window: W) => Rect | undefined },
): W | undefined {
  if (windows.length <= 1) return windows[0];
  const titled = windows.filter((w) => w.title === frameName);
  const holding =
    at && titled.length > 1
      ? titled.find((w) => {
          const r = at.rect(w);
          return r !== undefined && contains(r, at.point);
        })
      : undefined;
  return holding ?? titled[0] ?? windows[0];
}

/** Whether the point lies in the rect (its right and bottom edges outside). */
export const contains = (r: Rect, p: Point) =>
  p.x >= r.x && p.y >= r.y && p.x < r.x + r.width && p.y < r.y + r.height;

/**
 * Whether the app's extents are relative to its window, to be shifted by the window's place: GTK4's everywhere,
 * every Wayland app's; an X11 app on XWayland reports them on the X screen, which sway lays out as its own.
 */
export const windowRelative = (session: Session, app: AppFacts): boolean =>
  app.gtk4 || (onWayland(session.desk) && !app.xwayland);

/**
 * Whether an app that moves its keyboard focus also brings its window forward. On X11, GTK presents the window of
 * an element asked to grab focus; a Wayland compositor lets no app take the focus by itself.
 */
export const appRaisesOnFocus = (session: Session): boolean => !onWayland(session.desk);

/** The windows of `pid`, where their content shows. */
export async function placesOf(session: Session, pid: number): Promise<Placed[]> {
  if (remoteKind(session.desk)) {
    // A window's extents count from its surface, whose shadows lie around the frame.
    return (await (await session.remoteDesk()).shell.windows())
      .filter((w) => w.pid === pid && !w.minimized)
      .map((w) => ({ title: w.title, rect: w.buffer }));
  }
  if (session.desk === 'sway') {
    const desk = await session.sway();
    return (await desk.windows())
      .filter((w) => w.node.pid === pid && !w.scratchpad)
      .map((w) => ({ title: w.node.name ?? '', rect: contentRect(w.node) }));
  }
  const x11 = await session.x11IfAny();
  if (!x11) return [];
  const windows = await x11.windowsOf(pid);
  return Promise.all(windows.map(async (w) => ({ title: w.title, rect: await x11.rect(w.id) })));
}

/** The pid of the app whose window has the focus. */
export async function activePid(session: Session): Promise<number | undefined> {
  if (remoteKind(session.desk)) {
    const desk = await session.remoteDesk().catch(() => undefined);
    return (await desk?.shell.windows().catch(() => []))?.find((w) => w.focused)?.pid;
  }
  if (session.desk === 'sway') {
    const desk = await session.sway().catch(() => undefined);
    return (await desk?.windows().catch(() => []))?.find((w) => w.node.focused)?.node.pid;
  }
  return (await session.x11IfAny())?.activePid().catch(() => undefined);
}

/** The windows by their stacking, bottom first (on sway: the focused window last): each one's pid and title. */
export async function stacking(session: Session): Promise<{ pid?: number; title: string }[]> {
  if (remoteKind(session.desk)) {
    const windows = await (await session.remoteDesk()).shell.windows();
    return windows.filter((w) => !w.minimized).map((w) => ({ pid: w.pid, title: w.title }));
  }
  if (session.desk === 'sway') {
    const windows = (await (await session.sway()).windows()).filter((w) => !w.scratchpad);
    return [...windows.filter((w) => !w.node.focused), ...windows.filter((w) => w.node.focused)].map((w) => ({
      pid: w.node.pid,
      title: w.node.name ?? '',
    }));
  }
  const x11 = await session.x11IfAny();
  return x11 ? await x11.windows().catch(() => []) : [];
}

/**
 * The window of `pid` titled `title` (its only window, else the first; of several so titled, the one holding
 * `at`) brought forward and focused.
 */
export async function raiseWindowOf(
  session: Session,
  pid: number,
  title: string,
  signal?: AbortSignal,
  at?: Point,
): Promise<boolean> {
  if (remoteKind(session.desk)) {
    const { shell } = await session.remoteDesk();
    const window = windowForFrame(
      (await shell.windows()).filter((w) => w.pid === pid),
      title,
      at && { point: at, rect: (w) => w.buffer },
    );
    if (!window) return false;
    if (window.focused) return true;
    await shell.activate(window.id);
    return until(
      async () => (await shell.windows()).some((w) => w.id === window.id && w.focused),
      RAISE_MS,
      signal,
    );
  }
  if (session.desk === 'sway') {
    const desk = await session.sway();
    const mine = (await desk.windows())
      .filter((w) => w.node.pid === pid && !w.scratchpad)
      .map(({ node }) => ({ title: node.name ?? '', node }));
    const window = windowForFrame(mine, title, at && { point: at, rect: (w) => contentRect(w.node) });
    if (!window) return false;
    if (window.node.focused) return true;
    const id = window.node.id;
    await desk.ipc.command(`[con_id=${id}] focus`);
    return until(
      async () => (await desk.windows()).some((w) => w.node.id === id && w.node.focused),
      RAISE_MS,
      signal,
    );
  }
  const x11 = await session.x11IfAny();
  if (!x11) return false;
  const windows = await x11.windowsOf(pid);
  // Frames are read only where they decide: between windows titled alike (a press's hot path otherwise).
  const alike = windows.filter((w) => w.title === title);
  const rects =
    at && alike.length > 1
      ? new Map(await Promise.all(alike.map(async (w) => [w.id, await x11.rect(w.id)] as const)))
      : undefined;
  const window = windowForFrame(windows, title, at && rects && { point: at, rect: (w) => rects.get(w.id) });
  if (!window) return false;
  if ((await x11.activeWindow()) === window.id) return true;
  await x11.activate(window.id);
  return until(async () => (await x11.activeWindow()) === window.id, RAISE_MS, signal);
}

/** Asks each window of `pid` to close, as its close button would. */
export async function closeWindowsOf(session: Session, pid: number): Promise<void> {
  if (remoteKind(session.desk)) {
    const { shell } = await session.remoteDesk();
    for (const w of (await shell.windows()).filter((w) => w.pid === pid)) await shell.close(w.id);
    return;
  }
  if (session.desk === 'sway') {
    const desk = await session.sway();
    for (const w of (await desk.windows()).filter((w) => w.node.pid === pid)) {
      await desk.ipc.command(`[con_id=${w.node.id}] kill`);
    }
    return;
  }
  const x11 = await session.x11();
  for (const window of await x11.windowsOf(pid)) await x11.closeWindow(window.id);
  await x11.sync();
}

/** Whether synthetic pointer input works here. */
export async function hasPointer(session: Session): Promise<boolean> {
  if (remoteKind(session.desk)) {
    return (await session.remoteDesk()).remote().then(
      () => true,
      () => false,
    );
  }
  if (session.desk === 'sway') {
    return (await session.sway()).pointer().then(
      () => true,
      () => false,
    );
  }
  return x11Input.hasInput(session);
}

const inputOf = (session: Session) =>
  remoteKind(session.desk) ? remoteInput : session.desk === 'sway' ? swayInput : x11Input;

export function click(session: Session, params: Params<'input.click'>, signal?: AbortSignal) {
  return inputOf(session).click(session, params, signal);
}

export function key(session: Session, params: Params<'input.key'>, signal?: AbortSignal) {
  return inputOf(session).key(session, params, signal);
}
