/** Finding elements by state or position: the focused element and the element at a screen point. */
import type { ElementInfo } from '../../../../helper-client/protocol.js';
import { appRoots } from '../apps.js';
import {
  COORD_SCREEN,
  COORD_WINDOW,
  getAccessibleAtPoint,
  getChildren,
  getExtents,
  getProps,
  getRoleName,
  getState,
  matchStates,
} from './atspi.js';
import { type ReadContext, readInfo, WINDOW_ROLES } from './element.js';
import { isGone, isUnsupported } from '../../errors.js';
import { handleOf, type Ref } from './handles.js';
import { has, State, stateBitsOf } from './states.js';
import { frameOf } from './tree.js';
import type { Point } from './windows.js';
import { activePid as activePidOf, contains, stacking as windowStacking, windowRelative } from '../desk.js';

const FOCUS_WALK_LIMIT = 5000;
const MAX_DEPTH = 64;

/** Walk fallback for toolkits without Collection (GTK4): breadth first over showing elements. */
async function walkForFocus(ctx: ReadContext, root: Ref): Promise<Ref | undefined> {
  let level = [root];
  let seen = 0;
  while (level.length > 0 && seen < FOCUS_WALK_LIMIT) {
    seen += level.length;
    const reads = await Promise.all(
      level.map(async (ref) => {
        const bits = await getState(ctx.bus, ref).catch(() => undefined);
        if (!bits) return { ref, focused: false, children: [] };
        const focused = has(bits, State.FOCUSED);
        const visible = has(bits, State.VISIBLE) || ref.path.endsWith('/root');
        return {
          ref,
          focused,
          children: focused || !visible ? [] : await getChildren(ctx.bus, ref).catch(() => []),
        };
      }),
    );
    const hit = reads.find((r) => r.focused);
    if (hit) return hit.ref;
    level = reads.flatMap((r) => r.children);
  }
  return undefined;
}

async function focusedIn(ctx: ReadContext, appRoot: Ref): Promise<Ref | undefined> {
  try {
    const matches = await matchStates(ctx.bus, appRoot, stateBitsOf([State.FOCUSED]), 0);
    const states = await Promise.all(matches.map((m) => getState(ctx.bus, m).catch(() => undefined)));
    const focused = matches.filter((_, i) => {
      const bits = states[i];
      return bits !== undefined && has(bits, State.FOCUSED) && has(bits, State.SHOWING);
    });
    if (focused.length < 2) return focused[0];
    // Chromium's web document keeps its focused state while the focus is on the toolbar or in the page.
    const roles = await Promise.all(focused.map((m) => getRoleName(ctx.bus, m).catch(() => '')));
    return focused.find((_, i) => !roles[i]?.startsWith('document')) ?? focused[0];
  } catch (error) {
    if (!isUnsupported(error)) throw error;
    return walkForFocus(ctx, appRoot);
  }
}

/** The app of `pid`, or the active one: the owner of the active X window, else an app with an active frame. */
async function targetApp(ctx: ReadContext, pid: number | undefined): Promise<Ref | undefined> {
  const apps = await appRoots(ctx.session);
  if (pid !== undefined) return apps.find((a) => a.pid === pid)?.ref;
  const activePid = await activePidOf(ctx.session).catch(() => undefined);
  const byWindow = apps.find((a) => a.pid === activePid);
  if (byWindow) return byWindow.ref;
  for (const app of apps) {
    const frames = await getChildren(ctx.bus, app.ref).catch(() => []);
    const states = await Promise.all(frames.map((f) => getState(ctx.bus, f).catch(() => undefined)));
    if (states.some((s) => s !== undefined && has(s, State.ACTIVE))) return app.ref;
  }
  return undefined;
}

export async function focused(ctx: ReadContext, pid: number | undefined): Promise<ElementInfo | null> {
  const app = await targetApp(ctx, pid);
  if (!app) return null;
  const hit = await focusedIn(ctx, app);
  if (!hit) return null;
  try {
    return (await readInfo(ctx, hit, { maxValueLength: 200, frame: await frameOf(ctx, hit) })).info;
  } catch (error) {
    if (isGone(error)) return null;
    throw error;
  }
}

interface Candidate {
  frame: Ref;
  active: boolean;
  /** Position in the window manager's stacking order (higher is nearer the top). */
  stack: number;
  offset: Point;
  /** The app reports extents relative to its window. */
  relative: boolean;
}

export async function elementAt(ctx: ReadContext, point: Point): Promise<ElementInfo | null> {
  const apps = await appRoots(ctx.session);
  const stacking = (await windowStacking(ctx.session).catch(() => [])).map((w, stack) => ({ ...w, stack }));
  const candidates: Candidate[] = [];
  await Promise.all(
    apps.map(async (app) => {
      const facts = await ctx.session.app(app.ref.bus).catch(() => undefined);
      if (!facts) return;
      const frames = await getChildren(ctx.bus, app.ref).catch(() => []);
      await Promise.all(
        frames.map(async (frame) => {
          const [role, bits, extents] = await Promise.all([
            getRoleName(ctx.bus, frame),
            getState(ctx.bus, frame),
            getExtents(ctx.bus, frame),
          ]).catch(() => [undefined, undefined, undefined] as const);
          if (!role || !bits || !extents || !WINDOW_ROLES.has(role) || !has(bits, State.SHOWING)) return;
          const relative = windowRelative(ctx.session, facts);
          const offset = relative ? await ctx.offsets.offset(frame, facts.pid) : { x: 0, y: 0 };
          const bounds = { ...extents, x: extents.x + offset.x, y: extents.y + offset.y };
          if (!contains(bounds, point)) return;
          // The frame's own window where the app has several (matched by title), else the app's top one.
          const own = stacking.filter((w) => w.pid === facts.pid);
          const name =
            own.length > 1 ? (await getProps(ctx.bus, frame).catch(() => undefined))?.name : undefined;
          const titled = own.filter((w) => w.title === name);
          const stack = (titled.at(-1) ?? own.at(-1))?.stack ?? -1;
          candidates.push({ frame, active: has(bits, State.ACTIVE), stack, offset, relative });
        }),
      );
    }),
  );
  // The window manager's stacking decides (a window kept on top covers the active one); the active window, between
  // two frames it cannot tell apart.
  candidates.sort((a, b) => b.stack - a.stack || Number(b.active) - Number(a.active));
  const best = candidates[0];
  if (!best) return null;
  let current = best.frame;
  const local = { x: point.x - best.offset.x, y: point.y - best.offset.y };
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const hit = await getAccessibleAtPoint(
      ctx.bus,
      current,
      best.relative ? local.x : point.x,
      best.relative ? local.y : point.y,
      best.relative ? COORD_WINDOW : COORD_SCREEN,
    ).catch(() => undefined);
    if (!hit || handleOf(hit) === handleOf(current)) break;
    current = hit;
  }
  return (await readInfo(ctx, current, { maxValueLength: 200, frame: best.frame })).info;
}
