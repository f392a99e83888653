/**
 * ax.focus: keyboard focus to an element. A window is raised and activated; an element gets AT-SPI's
 * GrabFocus. GTK4 has no GrabFocus, so there focus travels the window's own focus chain with Ctrl+Tab (GTK's
 * move-focus key, which text views do not take as a tab character) until it reaches the element: a click
 * would also focus it, but it presses a button or toggles a check box, and focusing must change nothing else.
 */
import { type ElementNode, HelperErrorCode, type Result } from '../../../../helper-client/protocol.js';
import { activateFrameOf } from './actions.js';
import { caretToEnd, getState, grabFocus } from './atspi.js';
import { type ReadContext, readInfo, WINDOW_ROLES } from './element.js';
import { goneOr, HelperFailure, isUnsupported } from '../../errors.js';
import { handleOf, parseHandle, type Ref } from './handles.js';
import { appRaisesOnFocus, hasPointer, key, raiseWindowOf } from '../desk.js';
import { has, State } from './states.js';
import { snapshot, topFrame } from './tree.js';
import { until } from '../until.js';

const SETTLE_MS = 1000;
/** How long one Ctrl+Tab may take to move the focus. */
const STEP_MS = 200;
const TAB_KEYSYM = 0xff09;
/** Enough for the focusable elements of a large window. */
const MAX_WALK = 3000;

const focusedNow = async (ctx: ReadContext, ref: Ref) => has(await getState(ctx.bus, ref), State.FOCUSED);

/** The elements of the element's window that can take focus: its focus chain, in some order. */
async function focusables(ctx: ReadContext, ref: Ref): Promise<Ref[]> {
  const top = await topFrame(ctx, ref);
  if (!top) return [];
  const walk = { depth: 64, maxNodes: MAX_WALK, includeHidden: false, maxValueLength: 0 };
  const { root } = await snapshot(ctx, { root: handleOf(top), ...walk });
  const found: Ref[] = [];
  const visit = (node: ElementNode): void => {
    if (node.states.includes('focusable') && !node.states.includes('disabled'))
      found.push(parseHandle(node.id));
    node.children?.forEach(visit);
  };
  visit(root);
  return found;
}

/** Whether the element's top-level window is the active one (true when it has none to tell). */
async function frameActive(ctx: ReadContext, ref: Ref): Promise<boolean> {
  const top = await topFrame(ctx, ref);
  return top === undefined || has(await getState(ctx.bus, top), State.ACTIVE);
}

/** Which of `chain` has focus now, if any. */
async function holder(ctx: ReadContext, chain: readonly Ref[]): Promise<string | undefined> {
  const focused = await Promise.all(chain.map((r) => focusedNow(ctx, r).catch(() => false)));
  const at = chain[focused.indexOf(true)];
  return at && handleOf(at);
}

/**
 * Ctrl+Tab in the element's window until the element has focus, at most once round the focus chain. After
 * each press it waits only until the focus has moved.
 */
async function focusByKeyboard(ctx: ReadContext, ref: Ref, pid: number): Promise<boolean> {
  const cannot = (why: string, hint: string) => new HelperFailure(HelperErrorCode.ActionFailed, why, hint);
  if (!(await hasPointer(ctx.session)) || !(await activateFrameOf(ctx, ref, pid))) {
    throw cannot(
      'this app does not let accessibility clients move focus (GTK4 has no GrabFocus), and its window cannot be brought to the front for the keyboard',
      'click the element, or perform its activate action',
    );
  }
  const target = handleOf(ref);
  const chain = await focusables(ctx, ref);
  if (!chain.some((r) => handleOf(r) === target)) chain.push(ref);
  let at = await holder(ctx, chain);
  for (let step = 0; step <= chain.length; step++) {
    await key(ctx.session, { code: TAB_KEYSYM, modifiers: ['control'], repeat: 1 });
    await until(
      async () => {
        const now = await holder(ctx, chain);
        const moved = now !== undefined && now !== at;
        if (moved) at = now;
        return moved;
      },
      STEP_MS,
      ctx.signal,
    );
    if (at === target) return true;
  }
  throw cannot(
    `the element was not reached once round its window's focus chain (GTK4 has no GrabFocus; Ctrl+Tab moves focus there)`,
    'click the element, or perform its activate action',
  );
}

export async function focus(ctx: ReadContext, ref: Ref): Promise<Result<'ax.focus'>> {
  try {
    const read = await readInfo(ctx, ref, { maxValueLength: 0, frame: undefined });
    if (WINDOW_ROLES.has(read.role)) {
      return { focused: await raiseWindowOf(ctx.session, read.info.pid, read.info.name, ctx.signal) };
    }
    if (!has(read.bits, State.FOCUSABLE)) {
      throw new HelperFailure(
        HelperErrorCode.ActionFailed,
        'it is not focusable: the app gives it no keyboard focus',
        'focus a focusable element (a field, button or list) or click this one',
      );
    }
    // An element can be focused in a window behind the others: the keys would go to the window in front.
    // On X11 an app raises its window as it takes focus, except Firefox, whose frame stays behind: a frame
    // not active is brought forward first.
    const wayland = !appRaisesOnFocus(ctx.session);
    if (wayland || !(await frameActive(ctx, ref))) await activateFrameOf(ctx, ref, read.info.pid);
    if (has(read.bits, State.FOCUSED)) return { focused: true };
    try {
      await grabFocus(ctx.bus, ref);
    } catch (error) {
      if (!isUnsupported(error)) throw error;
      return { focused: await focusByKeyboard(ctx, ref, read.info.pid) };
    }
    const focused = await until(() => focusedNow(ctx, ref), SETTLE_MS, ctx.signal);
    // Focus selects a one-line GTK field's whole text, which typing would replace; the End key that moves past it
    // does not reach GTK3 apps under wtype (docs/linux-sessions.md): the caret goes to the end through the text.
    if (wayland && focused && has(read.bits, State.EDITABLE) && !has(read.bits, State.MULTI_LINE)) {
      await caretToEnd(ctx.bus, ref).catch(() => false);
    }
    return { focused };
  } catch (error) {
    return goneOr(error);
  }
}
