/** A helper that serves hand-built trees: enough of the protocol for the engine, no desktop. */
import type { HelperPort } from '../../../src/engine/kernel/port.js';
import { HelperError } from '../../../src/helper-client/errors.js';
import {
  type ElementDetail,
  type ElementInfo,
  type ElementNode,
  HelperErrorCode,
  type WindowInfo,
  type MethodName,
  type Params,
  type Result,
} from '../../../src/helper-client/protocol.js';

export interface FakeApp {
  pid: number;
  name: string;
  bundleId?: string;
  active: boolean;
  root: ElementNode;
  notAnswering?: 'stopped' | 'busy';
}

type Handlers = { [M in MethodName]?: (params: Params<M>) => Result<M> };

const info = (node: ElementNode): ElementInfo => {
  const { children: _children, ...rest } = node;
  return rest;
};

export class FakeHelper implements HelperPort {
  readonly calls: { method: MethodName; params: unknown }[] = [];
  /** Actions per handle; absent: none. */
  readonly actions = new Map<string, string[]>();
  /** Fields that keep at most this many characters of a text set, and answer what they kept (as macOS reads back). */
  readonly maxLengths = new Map<string, number>();
  /** Called for ax.perform after the action is checked; change the trees here to simulate the app. */
  onPerform: (id: string, action: string) => void = () => {};
  /** Make a method fail with a helper error code. */
  failWith: { method: MethodName; code: number; message: string; hint?: string } | undefined;
  /** The window manager's windows; screen.capture answers an image of one of them, at 2 pixels per point. */
  windows: WindowInfo[] = [];

  /** One 1280x800 display unless a test gives others. */
  displays = [{ id: 'd1', bounds: { x: 0, y: 0, width: 1280, height: 800 }, scale: 1, primary: true }];

  constructor(readonly apps: FakeApp[]) {}

  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    this.calls.push({ method, params });
    if (this.failWith?.method === method) {
      const { code, message, hint } = this.failWith;
      throw new HelperError(method, code, message, hint ? { hint } : {});
    }
    const handler = this.handlers[method] as ((p: Params<M>) => Result<M>) | undefined;
    if (!handler) throw new Error(`fake helper: ${method} not implemented`);
    return structuredClone(handler(params));
  }

  /** The node with this handle and its ancestors (root first), or ElementGone. */
  locate(id: string): { node: ElementNode; ancestors: ElementNode[]; app: FakeApp } {
    for (const app of this.apps) {
      const chain = chainTo(app.root, id);
      if (chain) return { node: chain[chain.length - 1] as ElementNode, ancestors: chain.slice(0, -1), app };
    }
    throw new HelperError('', HelperErrorCode.ElementGone, `no element ${id}`);
  }

  private readonly handlers: Handlers = {
    'apps.list': () => ({
      apps: this.apps.map((a) => ({
        pid: a.pid,
        name: a.name,
        id: a.root.id,
        active: a.active,
        ...(a.bundleId ? { bundleId: a.bundleId } : {}),
        ...(a.notAnswering ? { notAnswering: a.notAnswering } : {}),
      })),
    }),
    'ax.snapshot': (p) => walk(this.locate(p.root).node, p),
    'windows.list': () => ({ windows: this.windows }),
    'screen.displays': () => ({ displays: this.displays }),
    'screen.capture': (p) => {
      const { target } = p;
      const window = 'window' in target ? this.windows.find((w) => w.id === target.window) : undefined;
      if (!window) throw new HelperError('screen.capture', HelperErrorCode.Failed, 'no such window');
      const { bounds } = window;
      const image = { width: bounds.width * 2, height: bounds.height * 2, bounds, scale: 2 };
      return { data: Buffer.from('not a real PNG').toString('base64'), format: p.format, ...image };
    },
    'ax.element': (p) => {
      const node = this.locate(p.id).node;
      const element: ElementDetail = { ...info(node), actions: this.actions.get(p.id) ?? [], attributes: {} };
      return { element };
    },
    'ax.ancestors': (p) => ({ ancestors: this.locate(p.id).ancestors.map(info) }),
    'ax.focused': (p) => {
      const app = this.apps.find((a) => (p.pid === undefined ? a.active : a.pid === p.pid));
      const node = app && all(app.root).find((n) => n.states.includes('focused'));
      return { element: node ? info(node) : null };
    },
    'ax.elementAt': (p) => {
      const hits = this.apps.flatMap((a) => all(a.root)).filter((n) => contains(n, p.x, p.y));
      const last = hits[hits.length - 1];
      return { element: last ? info(last) : null };
    },
    'ax.perform': (p) => {
      if (!(this.actions.get(p.id) ?? []).includes(p.action)) {
        throw new HelperError('ax.perform', HelperErrorCode.ActionFailed, `no action ${p.action}`);
      }
      this.locate(p.id);
      this.onPerform(p.id, p.action);
      return { performed: p.action };
    },
    'ax.setValue': (p) => {
      const limit = this.maxLengths.get(p.id);
      const value = typeof p.value === 'string' && limit !== undefined ? p.value.slice(0, limit) : p.value;
      this.locate(p.id).node.value = value;
      return { value };
    },
    'input.click': () => ({}),
    'ax.focus': (p) => {
      const { node, app } = this.locate(p.id);
      for (const n of all(app.root)) n.states = n.states.filter((s) => s !== 'focused');
      node.states.push('focused');
      return { focused: true };
    },
  };
}

function chainTo(node: ElementNode, id: string): ElementNode[] | undefined {
  if (node.id === id) return [node];
  for (const child of node.children ?? []) {
    const chain = chainTo(child, id);
    if (chain) return [node, ...chain];
  }
  return undefined;
}

function all(node: ElementNode): ElementNode[] {
  return [node, ...(node.children ?? []).flatMap(all)];
}

function contains(node: ElementNode, x: number, y: number): boolean {
  const b = node.bounds;
  return b !== undefined && x >= b.x && y >= b.y && x < b.x + b.width && y < b.y + b.height;
}

/** Breadth first, like a real helper: depth and node caps, hidden (offscreen) children left out unless asked. */
function walk(root: ElementNode, p: Params<'ax.snapshot'>): Result<'ax.snapshot'> {
  const copy = (node: ElementNode): ElementNode => {
    const out = info(node);
    if (typeof out.value === 'string' && out.value.length > p.maxValueLength) {
      out.value = out.value.slice(0, p.maxValueLength);
      out.valueTruncated = true;
    }
    return out;
  };
  const top = copy(root);
  let count = 1;
  let truncated = false;
  let level: [ElementNode, ElementNode][] = [[root, top]];
  for (let depth = 0; depth < p.depth && level.length > 0; depth++) {
    const next: [ElementNode, ElementNode][] = [];
    for (const [source, target] of level) {
      const kids = (source.children ?? []).filter((c) => p.includeHidden || !c.states.includes('offscreen'));
      if (count + kids.length > p.maxNodes) {
        truncated = true;
        continue;
      }
      count += kids.length;
      target.children = kids.map((k) => {
        const c = copy(k);
        next.push([k, c]);
        return c;
      });
    }
    level = next;
  }
  return { root: top, nodeCount: count, truncated };
}
