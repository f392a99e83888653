/** Breadth-first walks (a level's elements all read in parallel) and the ancestor chain. */
import {
  type ElementInfo,
  type ElementNode,
  HelperErrorCode,
  type Params,
  type Result,
} from '../../helper/protocol.js';
import { getProps, getRoleName } from './atspi.js';
import { type ReadContext, readInfo, readNode, WINDOW_ROLES } from './element.js';
import { goneOr, HelperFailure } from './errors.js';
import { handleOf, parseHandle, type Ref } from './handles.js';

const MAX_ANCESTORS = 256;

/** Parents of an element, nearest first, up to (and including) its application root. */
export async function parentChain(ctx: ReadContext, ref: Ref): Promise<Ref[]> {
  const chain: Ref[] = [];
  let current = ref;
  try {
    for (let i = 0; i < MAX_ANCESTORS; i++) {
      const { parent } = await getProps(ctx.bus, current);
      // The application root's parent is the registry, on another bus.
      if (!parent || parent.bus !== ref.bus) break;
      chain.push(parent);
      current = parent;
    }
  } catch (error) {
    goneOr(handleOf(current), error);
  }
  return chain;
}

/** The top-level window an element lives in, needed only for GTK4 bounds. */
export async function frameOf(ctx: ReadContext, ref: Ref): Promise<Ref | undefined> {
  if (!(await ctx.session.app(ref.bus)).gtk4) return undefined;
  const chain = [ref, ...(await parentChain(ctx, ref))];
  const roles = await Promise.all(chain.map((r) => getRoleName(ctx.bus, r).catch(() => '')));
  return chain.find((_, i) => WINDOW_ROLES.has(roles[i] ?? ''));
}

export async function ancestors(ctx: ReadContext, ref: Ref): Promise<ElementInfo[]> {
  const chain = (await parentChain(ctx, ref)).reverse();
  const app = await ctx.session.app(ref.bus);
  const roles = app.gtk4 ? await Promise.all(chain.map((r) => getRoleName(ctx.bus, r))) : [];
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

export async function snapshot(
  ctx: ReadContext,
  params: Params<'ax.snapshot'>,
  bounds: boolean,
): Promise<Result<'ax.snapshot'>> {
  const rootRef = parseHandle(params.root);
  const base = { maxValueLength: params.maxValueLength, includeHidden: params.includeHidden, bounds };
  const rootRead = await readInfo(ctx, rootRef, {
    maxValueLength: params.maxValueLength,
    frame: await frameOf(ctx, rootRef),
    children: params.depth > 0,
  });
  const root: ElementNode = rootRead.info;
  const rootFrame = WINDOW_ROLES.has(rootRead.role) ? rootRef : await frameOf(ctx, rootRef);
  let nodeCount = 1;
  let truncated = false;
  const childrenOf = (node: ElementNode, refs: Ref[], depth: number, frame: Ref | undefined): Pending[] => {
    if (refs.length > 0) node.children = [];
    return refs.map((ref) => ({ ref, parent: node, depth, frame }));
  };
  let level = childrenOf(root, rootRead.children, 1, rootFrame);

  while (level.length > 0) {
    const next: Pending[] = [];
    let start = 0;
    // A chunk is at most the remaining node budget; hidden elements drop out, so read more until it is spent.
    while (start < level.length && nodeCount < params.maxNodes) {
      const chunk = level.slice(start, start + (params.maxNodes - nodeCount));
      start += chunk.length;
      const reads = await Promise.all(
        chunk.map((p) =>
          readNode(ctx, p.ref, { ...base, children: p.depth < params.depth, frame: p.frame }).catch(
            (error: unknown) => {
              // An element that vanished mid-walk is simply not there any more.
              if (error instanceof HelperFailure && error.code === HelperErrorCode.ElementGone) {
                return { hidden: true as const };
              }
              throw error;
            },
          ),
        ),
      );
      reads.forEach((read, i) => {
        const pending = chunk[i];
        if (read.hidden || !pending) return;
        nodeCount++;
        pending.parent.children?.push(read.info);
        const frame = WINDOW_ROLES.has(read.role) ? pending.ref : pending.frame;
        next.push(...childrenOf(read.info, read.children, pending.depth + 1, frame));
      });
    }
    if (start < level.length) {
      truncated = true;
      break;
    }
    level = next;
  }
  return { root, nodeCount, truncated };
}
