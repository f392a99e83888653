/** Breadth-first walks (a level's elements all read in parallel) and the ancestor chain. */
import {
  type ElementInfo,
  type ElementNode,
  HelperErrorCode,
  type Params,
  type Result,
} from '../../../../helper-client/protocol.js';
import { getIndexInParent, getProps, getRoleName, matchStates } from './atspi.js';
import {
  type NodeRead,
  type ReadContext,
  type ReadOptions,
  readInfo,
  readNode,
  WINDOW_ROLES,
} from './element.js';
import { elementGone, goneOr, HelperFailure, isUnsupported } from '../../errors.js';
import { handleOf, parseHandle, type Ref } from './handles.js';
import { windowRelative } from '../desk.js';
import { itemsSnapshot, registeredParents } from './items.js';
import { LONG_CONTAINER } from './on-screen.js';
import { State, stateBitsOf } from './states.js';

const MAX_ANCESTORS = 256;
const SHOWING = stateBitsOf([State.SHOWING]);

/**
 * Parents of an element, nearest first, up to (and including) its application root: for GTK4 from the app's
 * registry of elements in one round trip, else one round trip per parent.
 */
export async function parentChain(ctx: ReadContext, ref: Ref): Promise<Ref[]> {
  const registered = await registeredParents(ctx, ref);
  if (registered) return registered;
  const chain: Ref[] = [];
  const met = new Set([handleOf(ref)]);
  let current = ref;
  try {
    for (let i = 0; i < MAX_ANCESTORS; i++) {
      const { parent } = await getProps(ctx.bus, current);
      // The application root's parent is the registry, on another bus; a parent met before (an element its
      // own parent, a loop) ends the chain too.
      if (!parent || parent.bus !== ref.bus || met.has(handleOf(parent))) break;
      met.add(handleOf(parent));
      chain.push(parent);
      current = parent;
    }
  } catch (error) {
    goneOr(error);
  }
  return chain;
}

/**
 * The top-level window (frame, dialog) an element is in, or the element itself when it is one; remembered by
 * the session while the app's events can tell when it changes (finding it costs a round trip per ancestor).
 */
export function topFrame(ctx: ReadContext, ref: Ref): Promise<Ref | undefined> {
  return ctx.session.topFrame(ref, async () => {
    const chain = [ref, ...(await parentChain(ctx, ref))];
    const roles = await Promise.all(chain.map((r) => getRoleName(ctx.bus, r).catch(() => '')));
    // The outermost: Firefox puts its page in a `window` of its own inside the browser's frame.
    return chain.findLast((_, i) => WINDOW_ROLES.has(roles[i] ?? ''));
  });
}

export async function frameOf(ctx: ReadContext, ref: Ref): Promise<Ref | undefined> {
  return windowRelative(ctx.session, await ctx.session.app(ref.bus)) ? topFrame(ctx, ref) : undefined;
}

export async function ancestors(ctx: ReadContext, ref: Ref): Promise<ElementInfo[]> {
  const chain = (await parentChain(ctx, ref)).reverse();
  const app = await ctx.session.app(ref.bus);
  const roles = windowRelative(ctx.session, app)
    ? await Promise.all(chain.map((r) => getRoleName(ctx.bus, r)))
    : [];
  const frame = chain.find((_, i) => WINDOW_ROLES.has(roles[i] ?? ''));
  const reads = await Promise.all(chain.map((r) => readInfo(ctx, r, { maxValueLength: 200, frame })));
  return reads.map((r) => r.info);
}

interface Pending {
  ref: Ref;
  parent: ElementNode;
  depth: number;
  frame: Ref | undefined;
}

/**
 * Snapshots leave bounds out unless asked (includeBounds): GetExtents is a quarter of the calls per element, and
 * the tree text does not show them. When asked, extents go out in the same parallel wave as the rest.
 */
type WalkOptions = Pick<ReadOptions, 'maxValueLength' | 'includeHidden' | 'nameFilter'> & {
  depth: number;
  includeBounds?: boolean | undefined;
};

const readOptions = (
  options: WalkOptions,
  children: boolean,
  frame: Ref | undefined,
  onScreenOnly = !options.includeHidden,
): ReadOptions => ({
  maxValueLength: options.maxValueLength,
  includeHidden: options.includeHidden,
  bounds: options.includeBounds ?? false,
  children,
  frame,
  onScreenOnly,
  ...(options.nameFilter === undefined ? {} : { nameFilter: options.nameFilter }),
});

/** An element that vanished mid-walk is simply not there any more. */
function goneIsHidden(error: unknown): NodeRead {
  if (error instanceof HelperFailure && error.code === HelperErrorCode.ElementGone) return { hidden: true };
  throw error;
}

/**
 * Reads elements for a walk and runs ahead of it: as soon as an element's children are known their reads
 * start, up to a budget, so a deep tree costs about one round trip per level instead of one per level per
 * wave. The walk itself still takes the results in exact breadth-first order.
 */
class Prefetcher {
  private readonly reads = new Map<string, Promise<NodeRead>>();
  private budget: number;

  constructor(
    private readonly ctx: ReadContext,
    private readonly options: WalkOptions,
    maxNodes: number,
  ) {
    // Hidden elements are read but not kept, so run somewhat past the node budget.
    this.budget = Math.min(maxNodes + Math.ceil(maxNodes / 2) + 64, 60000);
  }

  prefetch(refs: Ref[], depth: number, frame: Ref | undefined): void {
    if (depth > this.options.depth || this.budget < refs.length) return;
    for (const ref of refs) this.read(ref, depth, frame).catch(() => {});
  }

  /** `frame`: the top-level frame the element lives in (GTK4 bounds need it). */
  read(ref: Ref, depth: number, frame: Ref | undefined): Promise<NodeRead> {
    const key = handleOf(ref);
    let read = this.reads.get(key);
    if (!read) {
      this.budget--;
      const options = readOptions(this.options, depth < this.options.depth, frame);
      read = readNode(this.ctx, ref, options, (children, childFrame) =>
        this.prefetch(children, depth + 1, childFrame),
      ).catch(goneIsHidden);
      this.reads.set(key, read);
    }
    return read;
  }
}

/**
 * Above this many matches per requested node, reading the flat set would waste too much: walk instead. A file
 * chooser on 300 files shows ~2,500 elements; read flat for an 800-node walk it took 770-1250 ms (median 1010),
 * walked 340-950 ms (median 580), 6 runs each, interleaved.
 */
const FLAT_OVERREAD = 2;

/**
 * GTK3 path: one Collection.GetMatches call lists every showing descendant (or every descendant), so all of
 * them are read in a single parallel wave, with no GetChildren and no hidden element read at all; the tree is
 * rebuilt from each element's Parent (matches come in tree order, so siblings keep their order). Undefined
 * when the toolkit has no Collection (GTK4), when the walk goes one level deep (GetMatches would list the whole
 * subtree, e.g. every row of an open file chooser, to keep its children), or when the set is much larger than
 * the walk would keep.
 */
async function flatSnapshot(
  ctx: ReadContext,
  rootRef: Ref,
  params: Params<'ax.snapshot'>,
): Promise<Result<'ax.snapshot'> | undefined> {
  // A search (nameFilter) walks, which reads the rows of a long list by their names first: listing them flat
  // would have the app make an object for each row first (GTK3: about 50 µs a row).
  if (params.depth <= 1 || params.nameFilter !== undefined) return undefined;
  if (windowRelative(ctx.session, await ctx.session.app(rootRef.bus))) return undefined;
  let matches: Ref[];
  // Listed up to the most a flat read is worth: the app stops there (a list of 10,000 rows GTK3 reports as
  // showing would cost it a listing of every row).
  const most = FLAT_OVERREAD * params.maxNodes + 64;
  try {
    matches = await matchStates(ctx.bus, rootRef, params.includeHidden ? [0, 0] : SHOWING, most + 1);
  } catch (error) {
    if (isUnsupported(error)) return undefined;
    return goneOr(error);
  }
  if (matches.length > most) return undefined;
  // The matches are already filtered, and the root is kept whatever its state.
  // GTK3 bounds are screen coordinates already: no frame needed.
  const options = readOptions({ ...params, includeHidden: true }, false, undefined);
  // Chromium lists some elements many times over (a bubble's, once per ancestor it has): each is read once.
  const unique = new Map(matches.map((m) => [handleOf(m), m]));
  unique.delete(params.root);
  const descendants = [...unique.values()];
  const [rootRead, ...reads] = await Promise.all([
    readNode(ctx, rootRef, options),
    ...descendants.map((ref) => readNode(ctx, ref, options).catch(goneIsHidden)),
  ]);
  if (!rootRead || rootRead.hidden) throw elementGone();
  const childrenOf = new Map<string, ElementNode[]>();
  const listed = new Set([params.root, ...descendants.map(handleOf)]);
  for (const read of reads) {
    if (read.hidden || !read.props.parent) continue;
    const parent = handleOf(read.props.parent);
    // A parent the listing did not reach: the toolkit's upward and downward links disagree (GTK3's file chooser
    // lists its extra widget under a panel whose parent does not list it). The walk follows the downward links,
    // as path resolution does, so that every element the tree shows is one a path reaches, and the other way.
    if (!listed.has(parent)) return undefined;
    const list = childrenOf.get(parent) ?? [];
    list.push(read.info);
    childrenOf.set(parent, list);
  }
  const root: ElementNode = rootRead.info;
  await markShownChildren(
    ctx,
    [rootRead.info, ...reads.flatMap((read) => (read.hidden ? [] : [read.info]))],
    childrenOf,
  );
  let nodeCount = 1;
  let level = [root];
  for (let depth = 0; depth < params.depth && level.length > 0; depth++) {
    const next: ElementNode[] = [];
    for (const node of level) {
      if (node.childCount > 0) node.children = [];
      for (const kid of childrenOf.get(node.id) ?? []) {
        if (nodeCount >= params.maxNodes) return { root, nodeCount, truncated: true };
        node.children?.push(kid);
        next.push(kid);
        nodeCount++;
      }
    }
    level = next;
  }
  return { root, nodeCount, truncated: false };
}

/**
 * A flat listing keeps the showing children only: of a long container with some left out (Chromium's list
 * items off screen), where the first one shown stands among all of them (shownChildren), as the walk says it.
 */
async function markShownChildren(
  ctx: ReadContext,
  nodes: readonly ElementNode[],
  childrenOf: ReadonlyMap<string, ElementNode[]>,
): Promise<void> {
  const long = nodes.filter(
    (node) => node.childCount > LONG_CONTAINER && (childrenOf.get(node.id)?.length ?? 0) < node.childCount,
  );
  await Promise.all(
    long.map(async (node) => {
      const kept = childrenOf.get(node.id) ?? [];
      // None on screen (a page scrolled to a blank stretch): all of them are left.
      if (kept.length === 0) {
        node.shownChildren = { from: 0, count: 0 };
        return;
      }
      const first = parseHandle((kept[0] as ElementNode).id);
      const index = await getIndexInParent(ctx.bus, first).catch(() => undefined);
      if (index !== undefined) node.shownChildren = { from: index, count: kept.length };
    }),
  );
}

/** Level-by-level walk for toolkits without Collection, with reads running ahead of it. */
async function walkSnapshot(
  ctx: ReadContext,
  rootRef: Ref,
  params: Params<'ax.snapshot'>,
): Promise<Result<'ax.snapshot'>> {
  const reader = new Prefetcher(ctx, params, params.maxNodes);
  const rootFrame = params.includeBounds ? await frameOf(ctx, rootRef) : undefined;
  const rootRead = await readNode(
    ctx,
    rootRef,
    // The root is read whatever its state; its children as the walk asks.
    readOptions({ ...params, includeHidden: true }, params.depth > 0, rootFrame, !params.includeHidden),
    (children, frame) => reader.prefetch(children, 1, frame),
  );
  if (rootRead.hidden) throw elementGone();
  const root: ElementNode = rootRead.info;
  let nodeCount = 1;
  let truncated = false;
  let passedOver = rootRead.passedOver ?? 0;
  // An element a walk meets again (a child that leads back up, as in Chromium's bubbles) stays where it was
  // met first: a tree that loops is walked once, not until the depth runs out.
  const placed = new Set([root.id]);
  const childrenOf = (
    node: ElementNode,
    read: Extract<NodeRead, { hidden: false }>,
    depth: number,
  ): Pending[] => {
    if (read.children.length > 0) node.children = [];
    return read.children.map((ref) => ({ ref, parent: node, depth, frame: read.frame }));
  };
  let level = childrenOf(root, rootRead, 1);

  while (level.length > 0) {
    const next: Pending[] = [];
    let start = 0;
    // A chunk is at most the remaining node budget; hidden elements drop out, so read more until it is spent.
    while (start < level.length && nodeCount < params.maxNodes) {
      // A walk the server cancelled stops between two rounds of reads.
      ctx.signal?.throwIfAborted();
      const chunk = level.slice(start, start + (params.maxNodes - nodeCount));
      start += chunk.length;
      const reads = await Promise.all(chunk.map((p) => reader.read(p.ref, p.depth, p.frame)));
      reads.forEach((read, i) => {
        const pending = chunk[i];
        if (read.hidden || !pending || placed.has(read.info.id)) return;
        placed.add(read.info.id);
        nodeCount++;
        passedOver += read.passedOver ?? 0;
        pending.parent.children?.push(read.info);
        next.push(...childrenOf(read.info, read, pending.depth + 1));
      });
    }
    if (start < level.length) {
      truncated = true;
      break;
    }
    level = next;
  }
  return { root, nodeCount, truncated, ...(passedOver > 0 ? { passedOver } : {}) };
}

export async function snapshot(
  ctx: ReadContext,
  params: Params<'ax.snapshot'>,
): Promise<Result<'ax.snapshot'>> {
  const rootRef = parseHandle(params.root);
  // One element alone: listing its descendants first (GetMatches) would only cost time.
  if (params.depth === 0) return walkSnapshot(ctx, rootRef, params);
  return (
    (await flatSnapshot(ctx, rootRef, params)) ??
    (await itemsSnapshot(ctx, rootRef, params)) ??
    walkSnapshot(ctx, rootRef, params)
  );
}
