/**
 * What an action changed: the app is walked before the action (or the walk that ended the previous action in
 * the same window stands in, when the app reported no change since), the action runs, the UI settles (on change
 * events, or by polling when an app sends none), the app is walked again, and the two walks are compared.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppInfo, ElementNode } from '../helper/protocol.js';
import { diffApp } from './diff.js';
import { isGone } from './failures.js';
import type { Observer } from './observer.js';
import type { HelperPort } from './port.js';
import type { CallOptions } from '../helper/errors.js';
import type { RefTable } from './refs.js';
import { LEVEL_MAX_NODES, type Resolver } from './resolve.js';
import type { ActionResult } from './results.js';
import { SNAPSHOT_VALUE_CHARS } from './snapshot.js';
import { annotate } from './tree.js';

/** What a post-action diff walks: the app, and the top-level window (or menu bar) holding the element. */
export interface Scope {
  app: AppInfo;
  top: string | undefined;
}

/** An action checked and ready to run; it answers one sentence saying what it did. */
export type Prepared = () => Promise<string>;

export interface ChangeSettings {
  /** Longest wait, after an action, for the UI to settle. */
  settleMs: number;
  /** Without change events: pause before each post-action walk (walks repeat until two agree). */
  pollMs: number;
  /** With change events: how long the app must go without one before the post-action walk. */
  quietMs: number;
  /** With change events: how long to wait for an action's first one (apps send it 2-8 ms after the change). */
  firstEventMs: number;
  /** Node cap of each window walked for a post-action diff. */
  diffMaxNodes: number;
  /** Depth of each window walked for a post-action diff. */
  diffDepth: number;
}

export const CHANGE_DEFAULTS: ChangeSettings = {
  settleMs: 1000,
  pollMs: 50,
  quietMs: 50,
  firstEventMs: 100,
  diffMaxNodes: 800,
  diffDepth: 20,
};

interface AppWalk {
  node: ElementNode;
  /** For comparing walks while the UI settles. */
  json: string;
  /** The app's change counter when the walk began: a change after it makes the walk stale. */
  counter: number;
}

/** How long the walk after an action may stand in for the walk before the next one. */
const REUSE_WALK_MS = 10_000;
const REMEMBERED_WALKS = 16;

export class Changes {
  private readonly lastWalks = new Map<string, { walk: AppWalk; at: number }>();

  constructor(
    private readonly port: HelperPort,
    private readonly refs: RefTable,
    private readonly resolver: Resolver,
    private readonly observer: Observer,
    private readonly settings: ChangeSettings,
  ) {}

  /**
   * Walk the app of `scope`, run the action, wait for the UI to settle, and answer with the action's summary and
   * what changed: for actions that have no target element (input at a point, keys), scope is the active app.
   */
  async observe(scope: Scope, run: Prepared, call?: CallOptions): Promise<ActionResult> {
    const { pid } = scope.app;
    const key = `${pid}/${scope.top ?? ''}`;
    const events = await this.observer.available();
    const before = (events && this.unchangedWalk(key, pid)) || (await this.appWalk(scope, undefined, call));
    const mark = events ? this.observer.counter(pid) : undefined;
    const done = await run();
    const after = await this.settle(scope, before, mark, call).catch((error: unknown) => {
      if (isGone(error)) return undefined;
      throw error;
    });
    this.lastWalks.delete(key);
    const app = { pid: scope.app.pid, name: scope.app.name };
    if (!after) return { kind: 'action', done, outcome: { kind: 'app-closed', app } };
    if (events) this.rememberWalk(key, scope, after);
    const path = { app: scope.app.name, segments: [] };
    const changes = diffApp(
      annotate({ node: before.node, path, app }, this.refs),
      annotate({ node: after.node, path, app }, this.refs),
    );
    return { kind: 'action', done, outcome: { kind: 'changes', app, changes } };
  }

  /**
   * The walk that ended the last action in this window, if the app has reported no change since it began: the
   * next action then needs no walk before it. Only for apps that report changes, and only for a short while.
   */
  private unchangedWalk(key: string, pid: number): AppWalk | undefined {
    const last = this.lastWalks.get(key);
    if (!last || performance.now() - last.at > REUSE_WALK_MS || !this.observer.reportsChanges(pid))
      return undefined;
    return this.observer.changedSince(pid, last.walk.counter) ? undefined : last.walk;
  }

  /** Keeps `after` for the next action in the same window, its other windows' subtrees left out. */
  private rememberWalk(key: string, scope: Scope, after: AppWalk): void {
    const children = after.node.children?.map((c) =>
      c.id === scope.top ? c : { ...c, children: undefined },
    );
    const node = { ...after.node, children };
    this.lastWalks.set(key, { walk: { ...after, node, json: JSON.stringify(node) }, at: performance.now() });
    if (this.lastWalks.size > REMEMBERED_WALKS)
      this.lastWalks.delete(this.lastWalks.keys().next().value as string);
  }

  /** The scope of an action on an element: its app and its top-level window. */
  async scope(handle: string, pid: number, call?: CallOptions): Promise<Scope> {
    const [app, { ancestors }] = await Promise.all([
      this.resolver.app(String(pid), call),
      this.port.call('ax.ancestors', { id: handle }, call),
    ]);
    return { app, top: ancestors.length === 0 ? undefined : (ancestors[1]?.id ?? handle) };
  }

  /**
   * The app's top-level elements, with the subtree of the affected one and of any that `before` lacked (a
   * window or menu that just opened). Elements that vanish mid-walk stay as they were listed.
   */
  private async appWalk(scope: Scope, before: AppWalk | undefined, call?: CallOptions): Promise<AppWalk> {
    const { diffDepth, diffMaxNodes } = this.settings;
    const level = {
      depth: 1,
      maxNodes: LEVEL_MAX_NODES,
      includeHidden: false,
      maxValueLength: SNAPSHOT_VALUE_CHARS,
    };
    const counter = this.observer.counter(scope.app.pid);
    const { root } = await this.port.call('ax.snapshot', { root: scope.app.id, ...level }, call);
    const known = new Set(before?.node.children?.map((c) => c.id));
    const deep = (root.children ?? []).filter((c) => c.id === scope.top || (before && !known.has(c.id)));
    const subtrees = new Map<string, ElementNode>();
    await Promise.all(
      deep.map(async (c) => {
        const params = { ...level, root: c.id, depth: diffDepth, maxNodes: diffMaxNodes };
        const walked = await this.port.call('ax.snapshot', params, call).catch((error: unknown) => {
          if (isGone(error)) return undefined;
          throw error;
        });
        if (walked) subtrees.set(c.id, walked.root);
      }),
    );
    const node = { ...root, children: root.children?.map((c) => subtrees.get(c.id) ?? c) };
    return { node, json: JSON.stringify(node), counter };
  }

  /**
   * With change events (`mark` is the app's change counter before the action): wait for the action's first
   * event, then until the app is quiet, and walk once; an app that reports changes but sent none after the
   * action did not change. Without events (none here, or none ever from this app): poll.
   */
  private async settle(
    scope: Scope,
    before: AppWalk,
    mark: number | undefined,
    call?: CallOptions,
  ): Promise<AppWalk> {
    const { pid } = scope.app;
    const { settleMs, quietMs, firstEventMs } = this.settings;
    const signal = call?.signal;
    if (mark !== undefined) {
      const started = performance.now();
      if (await this.observer.waitForChange(pid, { sinceCounter: mark, timeoutMs: firstEventMs, signal })) {
        const maxMs = settleMs - (performance.now() - started);
        await this.observer.waitForQuiet(pid, { quietMs, maxMs, signal });
        return this.appWalk(scope, before, call);
      }
      if (this.observer.reportsChanges(pid)) return this.appWalk(scope, before, call);
    }
    return this.poll(scope, before, call);
  }

  /** Walk until two walks in a row agree or settleMs passes. */
  private async poll(scope: Scope, before: AppWalk, call?: CallOptions): Promise<AppWalk> {
    const { settleMs, pollMs } = this.settings;
    const deadline = Date.now() + settleMs;
    await sleep(pollMs);
    let last = await this.appWalk(scope, before, call);
    while (Date.now() < deadline) {
      await sleep(pollMs);
      const next = await this.appWalk(scope, before, call);
      if (next.json === last.json) return next;
      last = next;
    }
    return last;
  }
}
