/**
 * From words to elements: app names to apps, paths to handles (one level at a time, from the app), and
 * elements met outside a walk (focus, hit tests) to paths and refs.
 */
import { MacpilotError } from '../errors.js';
import type { AppInfo, ElementInfo, ElementNode } from '../helper/protocol.js';
import {
  childPath,
  type ElementPath,
  formatPath,
  formatSegment,
  matchSegment,
  type Segment,
  segmentFor,
} from './paths.js';
import type { CallOptions, HelperPort } from './port.js';
import type { AppRef, RefTable } from './refs.js';
import { roleOf } from './roles.js';
import { matchByName } from './text.js';
import { annotate, labelOf, type Walked, walk } from './tree.js';

/** Children listed in an error before "+N more". */
const LISTED = 20;
/** A level of children is one depth-1 walk; this bounds it. */
export const LEVEL_MAX_NODES = 5_000;

export interface Resolved {
  handle: string;
  path: string;
  app: AppRef;
  label: string;
}

export function describeApps(apps: readonly AppInfo[]): string {
  return apps.length === 0 ? 'none' : apps.map((a) => `${a.name} (pid ${a.pid})`).join(', ');
}

const listChildren = (children: readonly ElementNode[]): string => {
  if (children.length === 0) return 'nothing';
  const shown = children.slice(0, LISTED).map((c) => labelOf(roleOf(c), c.name));
  const more = children.length > LISTED ? ` (+${children.length - LISTED} more)` : '';
  return `${shown.join(', ')}${more}`;
};

export class Resolver {
  constructor(
    private readonly port: HelperPort,
    private readonly refs: RefTable,
  ) {}

  async apps(call?: CallOptions): Promise<AppInfo[]> {
    return (await this.port.call('apps.list', {}, call)).apps;
  }

  /** An app by name (case-insensitive), bundle id or pid; absent: the active app. */
  async app(query: string | undefined, call?: CallOptions): Promise<AppInfo> {
    const apps = await this.apps(call);
    const found = query === undefined ? apps.filter((a) => a.active) : pickApps(apps, query);
    if (found.length === 1 && found[0]) return found[0];
    throw appError(query, found, apps);
  }

  /** The children of an element, as a depth-1 walk sees them (hidden ones left out). */
  async children(handle: string, call?: CallOptions): Promise<ElementNode[]> {
    const params = {
      root: handle,
      depth: 1,
      maxNodes: LEVEL_MAX_NODES,
      includeHidden: false,
      maxValueLength: 0,
    };
    return (await this.port.call('ax.snapshot', params, call)).root.children ?? [];
  }

  /**
   * Walk a path from its app, one level at a time; refused when a step matches nothing or several elements.
   * Issues no ref for what it finds: the caller decides whether that is a new ref or a re-pointed one.
   */
  async path(path: ElementPath, call?: CallOptions): Promise<Resolved> {
    const apps = await this.apps(call);
    const matched = matchByName(apps, (a) => a.name, path.app);
    const appInfo = matched[0];
    if (matched.length !== 1 || !appInfo) throw appError(path.app, matched, apps);
    const app = { pid: appInfo.pid, name: appInfo.name };
    let atPath: ElementPath = { app: appInfo.name, segments: [] };
    let at: Resolved = {
      handle: appInfo.id,
      path: formatPath(atPath),
      app,
      label: labelOf('application', appInfo.name),
    };
    for (const [step, segment] of path.segments.entries()) {
      const children = await this.children(at.handle, call);
      const found = matchSegment(children, segment);
      if (found.length !== 1 || !found[0]) throw this.stepError(path, step, atPath, children, found, app);
      atPath = childPath(atPath, segmentFor(found[0], children));
      at = resolvedAt(found[0], atPath, app);
    }
    return at;
  }

  private stepError(
    path: ElementPath,
    step: number,
    parent: ElementPath,
    children: ElementNode[],
    found: ElementNode[],
    app: AppRef,
  ): MacpilotError {
    const segment = formatSegment(path.segments[step] as Segment);
    const where = `step ${step + 2} of ${formatPath(path)} expects ${segment} under ${formatPath(parent)}`;
    if (found.length === 0) {
      return new MacpilotError({
        what: 'No element at this path',
        why: `${where}, and nothing there matches; there now: ${listChildren(children)}`,
        next: 'take a snapshot_ui or use find_elements to find the element as it is now, then act by its ref',
      });
    }
    const candidates = found.slice(0, LISTED).map((c) => {
      const entry = this.refs.issue(c.id, resolvedAt(c, childPath(parent, segmentFor(c, children)), app));
      return `${entry.ref} ${entry.label} at ${entry.path}`;
    });
    return new MacpilotError({
      what: `The path matches ${found.length} elements, so the action was refused`,
      why: `${where}, which matches: ${candidates.join('; ')}`,
      next: 'act on one of these refs, or add a name or an index to that segment of the path',
    });
  }

  /** An element met outside a walk (focus, hit test), with its ancestors' siblings, so that it has a path. */
  async locate(info: ElementInfo, call?: CallOptions): Promise<Walked> {
    const { ancestors } = await this.port.call('ax.ancestors', { id: info.id }, call);
    const appInfo = await this.app(String(info.pid), call);
    const levels = await Promise.all(ancestors.map((a) => this.children(a.id, call)));
    const chain = [...ancestors, info];
    // Each ancestor stands with its siblings; the next one down replaces itself among them.
    let node: ElementNode = info;
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const siblings = levels[i] ?? [];
      const below = chain[i + 1] as ElementInfo;
      const stitched = siblings.some((s) => s.id === below.id)
        ? siblings.map((s) => (s.id === below.id ? node : s))
        : [...siblings, node];
      node = { ...(chain[i] as ElementInfo), children: stitched };
    }
    const app = { pid: appInfo.pid, name: appInfo.name };
    const tree = annotate({ node, path: { app: appInfo.name, segments: [] }, app }, this.refs);
    const self = [...walk(tree)].find((w) => w.info.id === info.id);
    if (!self) throw new Error('located element missing from its own chain');
    return self;
  }
}

const resolvedAt = (info: ElementInfo, path: ElementPath, app: AppRef): Resolved => ({
  handle: info.id,
  path: formatPath(path),
  app,
  label: labelOf(roleOf(info), info.name),
});

function pickApps(apps: readonly AppInfo[], query: string): AppInfo[] {
  if (/^\d+$/.test(query)) return apps.filter((a) => a.pid === Number(query));
  const byName = matchByName(apps, (a) => a.name, query);
  if (byName.length > 0) return byName;
  const lower = query.toLowerCase();
  return apps.filter((a) => a.bundleId?.toLowerCase() === lower);
}

function appError(
  query: string | undefined,
  found: readonly AppInfo[],
  apps: readonly AppInfo[],
): MacpilotError {
  if (found.length > 1) {
    return new MacpilotError({
      what: query === undefined ? 'Several apps are active' : `Several apps match ${JSON.stringify(query)}`,
      why: `${describeApps(found)} all match`,
      next: 'name the app by its pid',
    });
  }
  return new MacpilotError({
    what: query === undefined ? 'No app is active' : `No running app matches ${JSON.stringify(query)}`,
    why:
      query === undefined
        ? 'no app is in front (or it exposes no accessibility tree)'
        : 'no running app with an accessibility tree has that name, bundle id or pid',
    next: `name one of the running apps: ${describeApps(apps)}; or launch_app it first`,
  });
}
