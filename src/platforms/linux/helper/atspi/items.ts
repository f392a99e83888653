/**
 * GTK4 snapshots in one round trip. A GTK4 app has no D-Bus server of its own (peer.ts), so each of a walk's
 * calls goes through the bus daemon; but it answers org.a11y.atspi.Cache.GetItems with every element it has
 * registered, each with its parent, its index among its siblings, its child count, name, role, description and
 * states: what the first wave of a walk reads of an element (AccessibleId, which GTK4 leaves empty, aside).
 * GTK4 registers an element when something first asks for it, so the answer can lack some: a snapshot is built
 * from it only when every element it keeps has all its children there (as many as its child count, at indexes
 * 0..n-1); otherwise the caller walks, which registers them for the next time. Only the second wave (text
 * values, labels of unnamed fields) is then read element by element.
 */
import type { ElementNode, Params, Result } from '../../../../helper-client/protocol.js';
import { type Props } from './atspi.js';
import { completeInfo, isShown, type ReadContext, readNode } from './element.js';
import { elementGone } from '../../errors.js';
import { asRef, handleOf, type Ref } from './handles.js';
import { roleName } from './roles.js';
import { asStateBits, has, State, type StateBits } from './states.js';

const CACHE_PATH = '/org/a11y/atspi/cache';
const CACHE = 'org.a11y.atspi.Cache';
const MAX_PARENTS = 256;

interface Item {
  ref: Ref;
  index: number;
  props: Props;
  role: string;
  bits: StateBits;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);

/** One GetItems entry: (so) element, (so) app, (so) parent, i index, i child count, as, s name, u role, s, au. */
function asItem(value: unknown): Item | undefined {
  if (!Array.isArray(value) || value.length < 10) return undefined;
  const [element, , parent, index, childCount, , name, role, description, states] = value as unknown[];
  const ref = asRef(element);
  if (!ref) return undefined;
  return {
    ref,
    index: num(index),
    props: {
      name: str(name),
      description: str(description),
      childCount: num(childCount),
      accessibleId: '',
      parent: asRef(parent),
    },
    role: roleName(num(role)),
    bits: asStateBits(states),
  };
}

interface Registry {
  /** Children by parent handle, each list in sibling order. */
  byParent: Map<string, Item[]>;
  /** Each registered element's parent, by handle (undefined: none, as for the application). */
  parents: Map<string, Ref | undefined>;
}

/** The app's registered elements, or undefined when it does not answer GetItems. */
async function registry(ctx: ReadContext, bus: string): Promise<Registry | undefined> {
  let answer: unknown;
  try {
    [answer] = await ctx.bus.call(bus, CACHE_PATH, CACHE, 'GetItems');
  } catch {
    return undefined; // no cache here, or the app is busy or gone: the walk will tell
  }
  if (!Array.isArray(answer)) return undefined;
  const byParent = new Map<string, Item[]>();
  const parents = new Map<string, Ref | undefined>();
  for (const value of answer) {
    const item = asItem(value);
    if (!item) continue;
    parents.set(handleOf(item.ref), item.props.parent);
    if (!item.props.parent) continue;
    const key = handleOf(item.props.parent);
    byParent.set(key, [...(byParent.get(key) ?? []), item]);
  }
  for (const list of byParent.values()) list.sort((a, b) => a.index - b.index);
  return { byParent, parents };
}

/**
 * The parents of a GTK4 element, nearest first, up to its application, from one GetItems; undefined when the
 * app is not GTK4 or one of them is not registered.
 */
export async function registeredParents(ctx: ReadContext, ref: Ref): Promise<Ref[] | undefined> {
  if (!(await ctx.session.app(ref.bus)).gtk4) return undefined;
  const known = await registry(ctx, ref.bus);
  if (!known) return undefined;
  const chain: Ref[] = [];
  for (let at = handleOf(ref); ;) {
    if (!known.parents.has(at)) return undefined;
    const parent = known.parents.get(at);
    if (!parent || parent.bus !== ref.bus) return chain;
    chain.push(parent);
    at = handleOf(parent);
    if (chain.length > MAX_PARENTS) return undefined;
  }
}

/** All of an element's children, in order, when every one is registered; undefined otherwise. */
function allChildren(byParent: Map<string, Item[]>, handle: string, count: number): Item[] | undefined {
  const list = byParent.get(handle) ?? [];
  if (list.length !== count || list.some((item, i) => item.index !== i)) return undefined;
  return list;
}

interface Pending {
  item: Item;
  parent: ElementNode;
  depth: number;
}

/**
 * A snapshot of a GTK4 element's subtree built from GetItems, the same as walkSnapshot would answer; undefined
 * when that cannot be known (not GTK4, bounds asked for, an element's children not all registered).
 */
export async function itemsSnapshot(
  ctx: ReadContext,
  rootRef: Ref,
  params: Params<'ax.snapshot'>,
): Promise<Result<'ax.snapshot'> | undefined> {
  const app = await ctx.session.app(rootRef.bus);
  if (!app.gtk4 || params.includeBounds || params.depth === 0) return undefined;
  const [known, rootRead] = await Promise.all([
    registry(ctx, rootRef.bus),
    readNode(ctx, rootRef, {
      maxValueLength: params.maxValueLength,
      children: false,
      includeHidden: true,
      bounds: false,
      frame: undefined,
    }),
  ]);
  if (rootRead.hidden) throw elementGone();
  if (!known) return undefined;
  const { byParent } = known;
  const root: ElementNode = rootRead.info;
  const rootChildren = allChildren(byParent, root.id, root.childCount);
  if (!rootChildren) return undefined;

  const kept: { node: ElementNode; item: Item }[] = [];
  // Children lists, attached once each element's info is complete (so that keys come in a walk's order).
  const lists = new Map<ElementNode, ElementNode[]>();
  const queue: Pending[] = [];
  const expand = (node: ElementNode, children: Item[], depth: number) => {
    if (children.length > 0) lists.set(node, []);
    for (const item of children) queue.push({ item, parent: node, depth });
  };
  expand(root, rootChildren, 1);
  let nodeCount = 1;
  let truncated = false;
  for (let next = 0; next < queue.length; next++) {
    if (nodeCount >= params.maxNodes) {
      truncated = true;
      break;
    }
    const { item, parent, depth } = queue[next] as Pending;
    if (has(item.bits, State.DEFUNCT)) continue;
    if (!params.includeHidden && !isShown(item.role, item.bits, app)) continue;
    const node = {} as ElementNode;
    lists.get(parent)?.push(node);
    kept.push({ node, item });
    nodeCount++;
    if (depth < params.depth) {
      const children = allChildren(byParent, handleOf(item.ref), item.props.childCount);
      if (!children) return undefined;
      expand(node, children, depth + 1);
    }
  }
  const infos = await Promise.all(
    kept.map(({ item }) => completeInfo(ctx, item.ref, { ...item, app }, params.maxValueLength)),
  ).catch(() => undefined); // an element went away meanwhile: the walk will say what is there now
  if (!infos) return undefined;
  kept.forEach(({ node }, i) => Object.assign(node, infos[i]));
  for (const [node, children] of lists) node.children = children;
  return { root, nodeCount, truncated };
}
