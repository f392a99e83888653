/**
 * The children of a long container (a list or table of thousands of rows) that are on screen, found by hit
 * testing down the container rather than by reading every child: a walk then reads a screenful, not 10,000 rows,
 * and never keeps the app busy answering for rows nobody sees. GTK3 reports its off-screen rows as showing (at
 * coordinates of -2^31), and Chromium its off-screen list items with real coordinates: hit tests tell both.
 */
import type { Bus } from '../../dbus/bus.js';
import {
  COORD_WINDOW,
  type Extents,
  getAccessibleAtPoint,
  getExtents,
  getIndexInParent,
  getProps,
  getRoleName,
} from './atspi.js';
import { asRef, handleOf, type Ref } from './handles.js';

/** Containers with more children than this are walked where they are on screen only. */
export const LONG_CONTAINER = 64;
/** Points at most this far apart down the container, and at most this many. */
const PROBE_STEP_PX = 8;
const MAX_PROBES = 120;
/**
 * Hits more children apart than this belong to separate runs (a header above rows scrolled far down); the
 * rows of a grid, a few children apart, to one.
 */
const RUN_GAP = 64;
/** How far up from a hit a direct child of the container is looked for. */
const MAX_CLIMB = 12;
/** Rows next to the hits taken at most at each end (a screenful of short rows). */
const MAX_EXTENDED = 200;

export interface OnScreen {
  /** The children on screen, in order: the run of rows shown, and what else was hit (a column header). */
  children: Ref[];
  /** Index of the run's first child among all children. */
  from: number;
}

const ACCESSIBLE = 'org.a11y.atspi.Accessible';

/**
 * The children of `container` (which has `childCount` of them) on screen, found without listing them all
 * (GetChildren of 10,000 rows costs GTK tens of milliseconds); undefined where hit testing tells nothing.
 */
export async function onScreenChildren(
  bus: Bus,
  container: Ref,
  childCount: number,
  /** The container's window: rows next to those hit are checked against its height. */
  frame?: Ref,
): Promise<OnScreen | undefined> {
  let box: Extents;
  let window: Extents | undefined;
  try {
    [box, window] = await Promise.all([
      getExtents(bus, container, COORD_WINDOW),
      frame ? getExtents(bus, frame, COORD_WINDOW).catch(() => undefined) : undefined,
    ]);
  } catch {
    return undefined;
  }
  if (box.width <= 0 || box.height <= 0) return undefined;
  const x = box.x + Math.max(2, Math.min(box.width / 4, 40));
  const step = Math.max(PROBE_STEP_PX, box.height / MAX_PROBES);
  const ys: number[] = [];
  for (let y = box.y + 1; y < box.y + box.height; y += step) ys.push(y);
  const hits = await Promise.all(ys.map((y) => childAt(bus, container, x, y)));
  const byIndex = new Map<number, Ref>();
  for (const hit of hits) if (hit && hit.index < childCount) byIndex.set(hit.index, hit.ref);
  const found = [...byIndex.keys()].sort((a, b) => a - b);
  if (found.length === 0) return undefined;
  // The longest run of hits close together is the rows shown; other hits (a header) come along alone.
  const runs: number[][] = [];
  for (const hit of found) {
    const last = runs.at(-1);
    if (last && hit - (last.at(-1) as number) <= RUN_GAP) last.push(hit);
    else runs.push([hit]);
  }
  const run = runs.reduce((a, b) => (b.length > a.length ? b : a));
  // Chromium answers a hit test with the container itself now and then, over rows it shows: the rows next to
  // the run are taken while their boxes are in the window.
  const band = window && { top: Math.max(box.y, 0), bottom: Math.min(box.y + box.height, window.height) };
  const inBand = async (index: number): Promise<boolean> => {
    if (!band || index < 0 || index >= childCount) return false;
    const ref = byIndex.get(index) ?? (await childAtIndex(bus, container, index));
    const row = ref && (await getExtents(bus, ref, COORD_WINDOW).catch(() => undefined));
    if (!ref || !row || row.height <= 0 || row.y + row.height <= band.top || row.y >= band.bottom)
      return false;
    // A table's column header is no row: it comes along as the header (below).
    if (index === 0 && (await isHeader(bus, ref))) return false;
    byIndex.set(index, ref);
    return true;
  };
  let from = run[0] as number;
  let to = run.at(-1) as number;
  for (let k = 0; k < MAX_EXTENDED && (await inBand(from - 1)); k++) from--;
  for (let k = 0; k < MAX_EXTENDED && (await inBand(to + 1)); k++) to++;
  // A table's column header leads its children, and a hit test above the rows may not reach it.
  const first = from > 0 && !byIndex.has(0) ? await childAtIndex(bus, container, 0) : undefined;
  const header = first && (await isHeader(bus, first)) ? [0] : [];
  if (first && header.length > 0) byIndex.set(0, first);
  const picked = [
    ...header,
    ...found.filter((i) => i < from),
    ...Array.from({ length: to - from + 1 }, (_, k) => from + k),
    ...found.filter((i) => i > to),
  ];
  const refs = await Promise.all(picked.map((i) => byIndex.get(i) ?? childAtIndex(bus, container, i)));
  return { children: refs.filter((ref): ref is Ref => ref !== undefined), from };
}

async function childAtIndex(bus: Bus, container: Ref, index: number): Promise<Ref | undefined> {
  const [child] = await bus
    .call(container.bus, container.path, ACCESSIBLE, 'GetChildAtIndex', 'i', [index])
    .catch(() => [undefined]);
  return asRef(child);
}

async function isHeader(bus: Bus, child: Ref): Promise<boolean> {
  return (await getRoleName(bus, child).catch(() => '')).includes('header');
}

/**
 * The container's child at a point (window coordinates), with its index: climbing from what the hit test finds
 * to the element whose parent is the container.
 */
async function childAt(
  bus: Bus,
  container: Ref,
  x: number,
  y: number,
): Promise<{ ref: Ref; index: number } | undefined> {
  const key = handleOf(container);
  try {
    let at = await getAccessibleAtPoint(bus, container, x, y, COORD_WINDOW);
    for (let climb = 0; at && climb < MAX_CLIMB; climb++) {
      if (handleOf(at) === key) return undefined;
      const { parent } = await getProps(bus, at);
      if (parent && handleOf(parent) === key) {
        const index = await getIndexInParent(bus, at);
        return index === undefined ? undefined : { ref: at, index };
      }
      at = parent;
    }
  } catch {
    // A hit test the toolkit cannot make, or an element gone meanwhile: no child here.
  }
  return undefined;
}
