/**
 * scroll_to_element: bring an element into view. The helper's own scroll-into-view comes first; where the
 * toolkit has none (GTK3), the wheel turns over the element's nearest scrollable container until the element
 * is inside it, in the direction its bounds point to (down, then up, when they say nothing).
 */
import { MacpilotError } from '../../errors.js';
import type { Bounds, ElementDetail, ElementInfo } from '../../helper-client/protocol.js';
import { entryLine, type Kernel, type Target } from '../kernel/kernel.js';
import { isGone, isUnavailable } from '../kernel/failures.js';
import { pause } from '../kernel/observer.js';
import type { HelperPort } from '../kernel/port.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { ActionResult } from '../kernel/results.js';
import { roleOf } from '../kernel/roles.js';
import { LONG_LIST } from '../kernel/tree.js';
import { entryWords, own, words } from '../kernel/words.js';
import { plural } from '../../text.js';

/** Wheel steps per turn (about 150 px) and the most turns before giving up. */
const STEPS_PER_TURN = 3;
const MAX_TURNS = 40;
/**
 * How long a scroll bar that has not moved after a turn is watched before its end is taken as reached: the app
 * handles the wheel after the input call returns, and a busy one moves its bar tens of milliseconds later.
 */
const END_WAIT_MS = 300;
const END_POLL_MS = 30;

const inside = (inner: Bounds, outer: Bounds): boolean =>
  inner.y >= outer.y &&
  inner.y + inner.height <= outer.y + outer.height + 1 &&
  inner.x < outer.x + outer.width;

function inView(element: ElementInfo, pane: Bounds | undefined): boolean {
  if (element.states.includes('offscreen') || !element.bounds) return false;
  return pane === undefined || inside(element.bounds, pane);
}

/** Which way the element lies from the pane, when its bounds say so. */
function directionOf(element: ElementInfo, pane: Bounds): 1 | -1 | undefined {
  const b = element.bounds;
  if (!b || Math.abs(b.y) > 1e6) return undefined;
  if (b.y + b.height <= pane.y) return -1;
  if (b.y >= pane.y + pane.height) return 1;
  return undefined;
}

/** A container's vertical scroll bar, where it has one. */
async function verticalBar(port: HelperPort, container: string, call?: CallOptions) {
  const params = {
    root: container,
    depth: 1,
    maxNodes: 50,
    includeHidden: false,
    maxValueLength: 0,
    includeBounds: true,
  };
  const { root } = await port.call('ax.snapshot', params, call);
  return root.children?.find(
    (c) => roleOf(c) === 'scrollbar' && c.bounds !== undefined && c.bounds.height > c.bounds.width,
  );
}

/** The value of a container's vertical scroll bar: when a turn of the wheel leaves it as it was, that end is reached. */
async function scrollPosition(port: HelperPort, container: string, call?: CallOptions): Promise<string> {
  return JSON.stringify((await verticalBar(port, container, call))?.value);
}

/**
 * Sets a long list's scroll bar where the element lies, by its place among its siblings: thousands of rows are
 * not turned through with the wheel. The share of the way down it was set to; undefined when it could not be.
 */
async function jumpTowards(
  port: HelperPort,
  container: string,
  detail: ElementDetail,
  siblings: number,
  call?: CallOptions,
): Promise<number | undefined> {
  const index = detail.indexInParent;
  // A long list is scrolled by its scroll bar first, then by the wheel.
  if (index === undefined || siblings <= LONG_LIST) return undefined;
  const bar = await verticalBar(port, container, call);
  if (!bar) return undefined;
  const { element } = await port.call('ax.element', { id: bar.id, maxValueLength: 0 }, call);
  if (!element.range) return undefined;
  const share = index / siblings;
  const { min, max } = element.range;
  await port.call('ax.setValue', { id: bar.id, value: min + (max - min) * share }, call);
  return share;
}

/** Whether the element is in view, or comes into view within END_WAIT_MS (an app scrolls after the call). */
async function settlesInView(
  read: () => Promise<ElementInfo>,
  pane: Bounds | undefined,
  call?: CallOptions,
): Promise<boolean> {
  const deadline = Date.now() + END_WAIT_MS;
  for (;;) {
    if (inView(await read(), pane)) return true;
    if (Date.now() >= deadline) return false;
    await pause(END_POLL_MS, call?.signal);
  }
}

/** The scroll position once it differs from `before`, or `before` when it has not moved within END_WAIT_MS. */
async function movedFrom(
  before: string,
  position: () => Promise<string>,
  call?: CallOptions,
): Promise<string> {
  const deadline = Date.now() + END_WAIT_MS;
  for (;;) {
    const now = await position();
    if (now !== before || Date.now() >= deadline) return now;
    await pause(END_POLL_MS, call?.signal);
  }
}

export class Reveal {
  constructor(private readonly kernel: Kernel) {}

  async scrollToElement(target: Target, call?: CallOptions): Promise<ActionResult> {
    const { port } = this.kernel;
    return this.kernel.act(target, 'scroll to', call, (entry, detail) => async () => {
      const id = entry.handle;
      const { ancestors } = await port.call('ax.ancestors', { id }, call);
      // A web page's document scrolls itself, as a scroll area does.
      const container = [...ancestors]
        .reverse()
        .find((a) => (roleOf(a) === 'scrollarea' || roleOf(a) === 'document') && a.bounds);
      const pane = container?.bounds;
      if (inView(detail, pane)) return words`${entryWords(entry)} is already in view.`;
      const read = async () => (await port.call('ax.element', { id, maxValueLength: 0 }, call)).element;

      const byHelper = await port.call('ax.scrollIntoView', { id }, call).then(
        () => true,
        (error: unknown) => {
          if (isGone(error) || !isUnavailable(error)) throw error;
          return false;
        },
      );
      if (byHelper && (await settlesInView(read, pane, call)))
        return words`Scrolled ${entryWords(entry)} into view.`;
      if (!container || !pane) {
        throw new MacpilotError({
          what: `Could not scroll ${entryLine(entry)} into view`,
          why: 'it is inside no scrollable container that this app exposes',
          next: 'scroll by hand (the scroll tool) over the list or page that holds it, then check with get_element',
          kind: 'no_scrollable_container',
          person: { next: 'scroll the list or page that holds it with the mouse wheel, then retry' },
        });
      }
      const siblings = ancestors.at(-1)?.childCount ?? 0;
      const share = await jumpTowards(port, container.id, detail, siblings, call).catch(() => undefined);
      const jumped =
        share === undefined
          ? ''
          : `set its list's scroll bar ${Math.round(share * 100)}% of the way down, then `;
      if (share !== undefined && (await settlesInView(read, pane, call))) {
        return words`Scrolled ${entryWords(entry)} into view (${own(`${jumped.replace(/, then $/, '')}`)}).`;
      }
      const at = { x: pane.x + pane.width / 2, y: pane.y + pane.height / 2 };
      const direction = directionOf(detail, pane);
      const tries: (1 | -1)[] = direction === undefined ? [1, -1] : [direction];
      let turns = 0;
      for (const sign of tries) {
        let position = await scrollPosition(port, container.id, call);
        for (let i = 0; i < MAX_TURNS; i++) {
          await port.call('input.scroll', { at, dx: 0, dy: sign * STEPS_PER_TURN }, call);
          turns++;
          if (inView(await read(), pane)) {
            return words`Scrolled ${own(sign > 0 ? 'down' : 'up')} (${own(`${jumped}${plural(turns, 'turn')} of the wheel`)}) until ${entryWords(entry)} came into view.`;
          }
          const now = await movedFrom(position, () => scrollPosition(port, container.id, call), call);
          if (now === position) break;
          position = now;
        }
      }
      // The app may scroll a moment after the last input: looked at once more before saying it did not.
      if (await settlesInView(read, pane, call)) {
        return words`Scrolled ${entryWords(entry)} into view (${own(`${jumped}${plural(turns, 'turn')} of the wheel`)}).`;
      }
      throw new MacpilotError({
        what: `Could not scroll ${entryLine(entry)} into view`,
        why: `${jumped ? `its list's scroll bar was set where it lies and ` : ''}${plural(turns, 'turn')} of the wheel over its container did not bring it into view`,
        next: 'it may sit in a collapsed or hidden part of the UI: expand its parent, or take a snapshot_ui to see where it is',
        kind: 'not_scrolled_into_view',
      });
    });
  }
}
