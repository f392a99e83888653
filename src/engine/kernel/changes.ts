/**
 * What an action changed: the app is walked before the action (or the walk that ended the previous action in
 * the same window stands in, while it is provably current: see `current`), the action runs, the UI settles (on
 * change events, or by polling when an app sends none), and the tree after it is compared with the one before.
 * The tree after is the one before with the elements the app's events touched read again, when the events say
 * exactly what changed; otherwise the app is walked again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppInfo, ElementNode } from '../../helper-client/protocol.js';
import { diffApp } from './diff.js';
import { isGone } from './failures.js';
import type { Observer, Touched } from './observer.js';
import type { HelperPort } from './port.js';
import { type CallOptions, HelperError } from '../../helper-client/errors.js';
import { HelperErrorCode } from '../../helper-client/protocol.js';
import type { RefTable } from './refs.js';
import { roleOf } from './roles.js';
import { LEVEL_MAX_NODES, type Resolver } from './resolve.js';
import type { ActionResult } from './results.js';
import { annotate, SNAPSHOT_VALUE_CHARS } from './tree.js';
import type { Words } from './words.js';

/** What a post-action diff walks: the app, and the top-level window (or menu bar) holding the element. */
export interface Scope {
  app: AppInfo;
  top: string | undefined;
}

/** An action checked and ready to run; it answers one sentence saying what it did. */
export type Prepared = () => Promise<Words>;

/** What the caller knows of an action's effect. */
export interface Expectation {
  /**
   * The action always changes the UI (a menu clicked opens or closes, an item chosen closes its menu): the
   * answer waits for its first change event up to settleMs rather than firstEventMs, and walks the app again if
   * none came.
   */
  surely?: boolean;
  /**
   * The quiet the app must keep, at least, before the tree after is read: an item chosen from a menu is acted on
   * once the menu has closed, often from a timer (Thunar updates its status bar 50 ms later at low priority,
   * about 100 ms after the menu's last event), which the structure's quiet window would not wait for.
   */
  quietMs?: number;
  /**
   * The action may press its window's default button (a click on it, or Enter in a window that has one enabled).
   * That often closes the window a while after the app's first reactions (a file chooser empties itself, then
   * writes or reads the file, then closes): the answer waits for the window to go, up to DEFAULT_PRESS_MS, as
   * long as the app keeps changing within DEFAULT_PRESS_QUIET_MS.
   */
  pressesDefault?: boolean;
  /** The action is Escape: a dialog takes it as Cancel, and is waited for as for pressesDefault. */
  cancelsDialog?: boolean;
}

/** The longest an answer waits for a window whose default button was pressed to close (Expectation.pressesDefault). */
const DEFAULT_PRESS_MS = 3000;
/** How long an app that pressed a default button may go without a change before its window is taken as staying. */
const DEFAULT_PRESS_QUIET_MS = 600;
/** How long a read of that window may take before the window is taken as gone with its app (Changes.stillThere). */
const STILL_THERE_MS = 500;

/** The quiet an item chosen from a menu is given (Expectation.quietMs). */
export const MENU_CHOICE_QUIET_MS = 200;

export interface ChangeSettings {
  /** Longest wait, after an action, for the UI to settle. */
  settleMs: number;
  /** Without change events: pause before each post-action walk (walks repeat until two agree). */
  pollMs: number;
  /**
   * With change events: how long the app must go without one before the tree after the action is read, when
   * its events so far changed elements only in place (text, states, names); more than the helpers' fold
   * interval (10 ms), within which a second notification cannot come. It is the floor: an app whose changes
   * went on after an answer gets the window it showed it needs (Observer.quietWindow).
   */
  quietMs: number;
  /** The same when its events added, removed, showed or hid elements, or opened or closed a window. */
  structureQuietMs: number;
  /**
   * With change events: how long to wait for an action's first one. Apps send it 2-8 ms after the change on an
   * idle machine; on a loaded one (two test suites on 2 cores) Thunar's menu and gnome-calculator's display sent
   * theirs after more than 100 ms, and the answer said "Nothing changed". Only an action that changes nothing
   * waits all of it.
   */
  firstEventMs: number;
  /** Node cap of each window walked for a post-action diff. */
  diffMaxNodes: number;
  /** Depth of each window walked for a post-action diff. */
  diffDepth: number;
}

export const CHANGE_DEFAULTS: ChangeSettings = {
  settleMs: 1000,
  pollMs: 50,
  quietMs: 20,
  structureQuietMs: 50,
  firstEventMs: 300,
  diffMaxNodes: 800,
  diffDepth: 20,
};

/** The longest an answer waits for a dialog to enable its default button (see Changes.pendingDefault). */
const DEFAULT_BUTTON_MS = 400;

/** A default button (what Enter presses) shown disabled. */
const isDisabledDefault = (node: ElementNode): boolean => isShownDefault(node, true);

/** A default button shown, disabled or enabled as asked. */
const isShownDefault = ({ states }: ElementNode, disabled: boolean): boolean =>
  states.includes('default') && states.includes('disabled') === disabled && !states.includes('offscreen');

/** The window `top` of the app's tree (the app, when undefined). */
const windowOf = (app: ElementNode, top: string | undefined): ElementNode | undefined =>
  top === undefined ? app : app.children?.find((c) => c.id === top);

/** The default buttons the window `top` (the app, when undefined) shows disabled. */
function disabledDefaults(app: ElementNode, top: string | undefined): ElementNode[] {
  const window = windowOf(app, top);
  return window ? [...nodesOf(window).values()].filter(isDisabledDefault) : [];
}

/** Whether the window `top` shows a default button Enter would press. */
const isDialog = (app: ElementNode, top: string): boolean => {
  const window = windowOf(app, top);
  return window !== undefined && roleOf(window) === 'dialog';
};

function hasEnabledDefault(app: ElementNode, top: string): boolean {
  const window = windowOf(app, top);
  return window !== undefined && [...nodesOf(window).values()].some((node) => isShownDefault(node, false));
}

interface AppWalk {
  node: ElementNode;
  /** For comparing walks while the UI settles. */
  json: string;
  /** The app's change counter when the walk began: a change after it makes the walk stale. */
  counter: number;
  /** The observer's layout counter when the walk began: a window or app that came or went makes it stale. */
  layout: number;
  /** Whether the walk of the affected window left elements out (node or depth cap): it cannot be patched. */
  truncated: boolean;
}

interface Remembered {
  walk: AppWalk;
  scope: Scope;
  at: number;
}

/** How long the walk after an action may stand in for the walk before the next one, at most. */
const REUSE_WALK_MS = 10_000;
const REMEMBERED_WALKS = 16;

/**
 * Event kinds that change only the element they are about, in what a walk reads of it (name, states, value):
 * reading that element again brings a tree up to date. Any other kind (children added or removed, an element
 * shown or hidden, a window's events, kinds not listed) may move elements, and the app is walked again.
 */
const LOCAL_KINDS = [
  /^object:text-(changed|caret-moved|selection-changed|attributes-changed)(:|$)/,
  /^object:state-changed:(?!showing$|visible$|defunct$)/,
  /^object:property-change:accessible-(name|description|value|role)$/,
  /^object:(value-changed|bounds-changed)(:|$)/,
  /^focus:/,
];
const isLocal = (kind: string) => LOCAL_KINDS.some((pattern) => pattern.test(kind));
const movesFocus = (kind: string) => /^(object:state-changed:focused|focus:)/.test(kind);

/** Every node of a tree, by handle. */
function nodesOf(root: ElementNode): Map<string, ElementNode> {
  const nodes = new Map<string, ElementNode>();
  const visit = (node: ElementNode) => {
    nodes.set(node.id, node);
    node.children?.forEach(visit);
  };
  visit(root);
  return nodes;
}

/** The tree with each node read again in `fresh` in place of the old one, its children kept. */
function replaced(node: ElementNode, fresh: ReadonlyMap<string, ElementNode>): ElementNode {
  const children = node.children?.map((c) => replaced(c, fresh));
  const base = { ...(fresh.get(node.id) ?? node) };
  delete base.children;
  return children ? { ...base, children } : base;
}

/** Whether a walk cut the tree: a node with children none of which were read (the depth cap). */
const cut = (node: ElementNode): boolean =>
  node.children === undefined ? node.childCount > 0 : node.children.some(cut);

export class Changes {
  private readonly remembered = new Map<string, Remembered>();

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
  async observe(
    scope: Scope,
    run: Prepared,
    call?: CallOptions,
    expectation: Expectation = {},
  ): Promise<ActionResult> {
    const { pid } = scope.app;
    const key = `${scope.app.id}/${scope.top ?? ''}`;
    const events = await this.observer.available();
    const remembered = this.remembered.get(key);
    const app = { pid: scope.app.pid, name: scope.app.name };
    // An app too busy to be read (a page of 10,000 rows) still gets its key or click: only what changed is unsaid.
    const unread = (error: unknown) => {
      if (!(error instanceof HelperError) || error.code !== HelperErrorCode.Timeout) throw error;
      return { why: error.message.replace(/^[\w.]+: /, '') };
    };
    const before =
      (events && remembered && this.current(remembered) && remembered.walk) ||
      (await this.appWalk(scope, undefined, call).catch(unread));
    if ('why' in before) {
      const done = await run();
      return { kind: 'action', done, outcome: { kind: 'unread', app, why: before.why } };
    }
    const mark = events ? this.observer.counter(pid) : undefined;
    this.observer.acting(pid);
    const done = await run();
    const after = await this.settle(scope, before, mark, expectation, call).catch((error: unknown) => {
      if (isGone(error)) return undefined;
      return unread(error);
    });
    this.remembered.delete(key);
    if (after && 'why' in after)
      return { kind: 'action', done, outcome: { kind: 'unread', app, why: after.why } };
    if (!after) return { kind: 'action', done, outcome: { kind: 'app-closed', app } };
    if (events) this.remember(key, scope, after);
    const path = this.resolver.rootPath(scope.app);
    const changes = diffApp(
      annotate({ node: before.node, path, app }, this.refs),
      annotate({ node: after.node, path, app }, this.refs),
    );
    return { kind: 'action', done, outcome: { kind: 'changes', app, changes } };
  }

  /**
   * Whether a remembered walk is provably the app's tree now: the app reports its changes and has reported
   * none since the walk began, no window or app came or went (nor did the helper restart), and it is recent.
   * An app that has never sent an event cannot be trusted to send one, so its walks never stand in.
   */
  private current({ walk, scope, at }: Remembered): boolean {
    const { pid } = scope.app;
    return (
      performance.now() - at <= REUSE_WALK_MS &&
      this.observer.reportsChanges(pid) &&
      !this.observer.changedSince(pid, walk.counter) &&
      this.observer.layout() === walk.layout
    );
  }

  /** Keeps `after` for the next action in the same window, its other windows' subtrees left out. */
  private remember(key: string, scope: Scope, after: AppWalk): void {
    const children = after.node.children?.map((c) =>
      c.id === scope.top ? c : { ...c, children: undefined },
    );
    const node = { ...after.node, children };
    const walk = { ...after, node, json: JSON.stringify(node) };
    this.remembered.set(key, { walk, scope, at: performance.now() });
    if (this.remembered.size > REMEMBERED_WALKS)
      this.remembered.delete(this.remembered.keys().next().value as string);
  }

  /**
   * The scope of an action on an element: its app and its top-level window. A current remembered walk that
   * holds the element answers it without asking the helper.
   */
  async scope(handle: string, pid: number, call?: CallOptions): Promise<Scope> {
    const known = this.knownScope(handle, pid);
    if (known) {
      this.resolver.admit(known.app);
      return known;
    }
    const [app, { ancestors }] = await Promise.all([
      this.resolver.appOf(pid, call),
      this.port.call('ax.ancestors', { id: handle }, call),
    ]);
    return { app, top: ancestors.length === 0 ? undefined : (ancestors[1]?.id ?? handle) };
  }

  /**
   * The scope of an action with no element to hold it (keys when nothing has the focus, as while a menu bar's
   * menu is open): the app, and its active top-level window, so that what changes in that window is seen.
   */
  async activeScope(app: AppInfo, call?: CallOptions): Promise<Scope> {
    const windows = await this.resolver.children(app.id, false, call);
    return { app, top: windows.find((w) => w.states?.includes('active'))?.id };
  }

  private knownScope(handle: string, pid: number): Scope | undefined {
    for (const remembered of this.remembered.values()) {
      const { scope, walk } = remembered;
      if (scope.app.pid !== pid || scope.top === undefined || !this.current(remembered)) continue;
      const top = walk.node.children?.find((c) => c.id === scope.top);
      if (top && nodesOf(top).has(handle)) return scope;
    }
    return undefined;
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
    const layout = this.observer.layout();
    const { root } = await this.port.call('ax.snapshot', { root: scope.app.id, ...level }, call);
    const known = new Set(before?.node.children?.map((c) => c.id));
    const deep = (root.children ?? []).filter((c) => c.id === scope.top || (before && !known.has(c.id)));
    const subtrees = new Map<string, ElementNode>();
    let truncated = false;
    await Promise.all(
      deep.map(async (c) => {
        const params = { ...level, root: c.id, depth: diffDepth, maxNodes: diffMaxNodes };
        const walked = await this.port.call('ax.snapshot', params, call).catch((error: unknown) => {
          if (isGone(error)) return undefined;
          throw error;
        });
        if (walked) subtrees.set(c.id, walked.root);
        if (!walked || walked.truncated || cut(walked.root)) truncated = true;
      }),
    );
    const node = { ...root, children: root.children?.map((c) => subtrees.get(c.id) ?? c) };
    return { node, json: JSON.stringify(node), counter, layout, truncated };
  }

  /**
   * The tree after the action as `before` with the elements that the app's events since it touched read
   * again; undefined when that would not be exact: the walk was cut, the app does not report its changes, the
   * events named no elements, or one of them may have moved elements (see LOCAL_KINDS). Events about elements
   * outside the tree that changed nothing but themselves (hidden ones, in other windows) change nothing in it.
   */
  private async patched(scope: Scope, before: AppWalk, call?: CallOptions): Promise<AppWalk | undefined> {
    const { pid } = scope.app;
    const counter = this.observer.counter(pid);
    const layout = this.observer.layout();
    if (before.truncated || layout !== before.layout || !this.observer.reportsChanges(pid)) return undefined;
    const touched: Touched | undefined = this.observer.touchedSince(pid, before.counter);
    if (!touched) return undefined;
    const nodes = nodesOf(before.node);
    const reread: string[] = [];
    for (const [id, kinds] of touched) {
      if (![...kinds].every(isLocal)) return undefined;
      if (nodes.has(id)) reread.push(id);
      // The focus went to an element the walk left out (off screen until the page scrolled to show it).
      else if ([...kinds].some(movesFocus)) return undefined;
    }
    const fresh = await this.readAlone(reread, call);
    // An element gone, or children that came or went without an event: the events did not tell everything.
    if (
      fresh.size < reread.length ||
      [...fresh.values()].some((root) => root.childCount !== nodes.get(root.id)?.childCount)
    )
      return undefined;
    const node = replaced(before.node, fresh);
    return { node, json: JSON.stringify(node), counter, layout, truncated: false };
  }

  /**
   * With change events (`mark` is the app's change counter before the action): wait for the action's first
   * event, then until the app is quiet; the tree after is then `before` patched with what the events touched,
   * or a new walk where that is not exact. An app that reports changes but sent none after the action did not
   * change, unless the action surely changes the UI: then the app is walked again. Without events (none here,
   * or none ever from this app): poll.
   */
  private async settle(
    scope: Scope,
    before: AppWalk,
    mark: number | undefined,
    {
      surely = false,
      quietMs: actionQuietMs = 0,
      pressesDefault = false,
      cancelsDialog = false,
    }: Expectation,
    call?: CallOptions,
  ): Promise<AppWalk> {
    const { pid } = scope.app;
    const { settleMs, firstEventMs } = this.settings;
    const quietMs = Math.max(this.settings.quietMs, actionQuietMs);
    const structureQuietMs = Math.max(this.settings.structureQuietMs, actionQuietMs);
    const signal = call?.signal;
    const top = scope.top;
    const closing =
      top !== undefined &&
      ((pressesDefault && hasEnabledDefault(before.node, top)) ||
        (cancelsDialog && isDialog(before.node, top)))
        ? top
        : undefined;
    if (mark !== undefined) {
      const started = performance.now();
      let moved = await this.observer.waitForChange(pid, {
        sinceCounter: mark,
        timeoutMs: surely ? settleMs : firstEventMs,
        signal,
      });
      // A window whose default button was pressed may first change well after (a file chooser busy with the
      // file): while it is there, the app's first reaction is waited for longer. Gone (its app exited): done.
      if (!moved && closing !== undefined && (await this.stillThere(closing, call))) {
        moved = await this.observer.waitForChange(pid, {
          sinceCounter: mark,
          timeoutMs: settleMs - firstEventMs,
          signal,
        });
      }
      if (moved) {
        const maxMs = () => settleMs - (performance.now() - started);
        await this.quiet(pid, quietMs, maxMs(), signal);
        // An app that opens a window or rebuilds a part of it takes longer between its steps.
        if (!this.inPlace(pid, mark)) await this.quiet(pid, structureQuietMs, maxMs(), signal);
        if (closing) await this.untilClosed(pid, closing, started + DEFAULT_PRESS_MS, call);
      }
      if (moved || this.observer.reportsChanges(pid)) {
        const patched = moved || !surely ? await this.patched(scope, before, call) : undefined;
        const after = patched ?? (await this.appWalk(scope, before, call));
        const settled = (await this.pendingDefault(scope, after, call)) ?? after;
        this.observer.answered(pid);
        return settled;
      }
    }
    return this.poll(scope, before, call);
  }

  /**
   * Wait until the app has been quiet for its quiet window (`floorMs`, or what the app taught longer). An app
   * that stays busy through a window longer than the floor changes on its own and is given the floor from then on.
   */
  private async quiet(pid: number, floorMs: number, maxMs: number, signal?: AbortSignal): Promise<void> {
    const quietMs = this.observer.quietWindow(pid, floorMs);
    const quieted = await this.observer.waitForQuiet(pid, { quietMs, maxMs, signal });
    if (!quieted && quietMs > floorMs) this.observer.restless(pid);
  }

  /**
   * Before the Enter that submits what was just typed into the field `handle`: a window that shows its default
   * button disabled (GTK's file chooser enables Open about 100 ms after a typed path) is given up to
   * DEFAULT_BUTTON_MS to enable it, so that Enter presses it.
   */
  async untilDefaultEnabled(handle: string, call?: CallOptions): Promise<void> {
    const { ancestors } = await this.port.call('ax.ancestors', { id: handle }, call);
    const top = ancestors[1]?.id;
    if (top === undefined) return;
    const { diffDepth: depth, diffMaxNodes: maxNodes, pollMs } = this.settings;
    const window = { root: top, depth, maxNodes, includeHidden: false, maxValueLength: 0 };
    const { root } = await this.port.call('ax.snapshot', window, call);
    let pending = [...nodesOf(root).values()].filter(isDisabledDefault);
    const deadline = performance.now() + DEFAULT_BUTTON_MS;
    while (pending.length > 0 && performance.now() < deadline) {
      await sleep(pollMs, undefined, { signal: call?.signal });
      const fresh = await this.readAlone(
        pending.map((n) => n.id),
        call,
      );
      pending = [...fresh.values()].filter(isDisabledDefault);
    }
  }

  /**
   * After a default button was pressed: until the window `top` is gone, while the app goes on changing (each
   * change within DEFAULT_PRESS_QUIET_MS of the last), up to `deadline`.
   */
  private async untilClosed(pid: number, top: string, deadline: number, call?: CallOptions): Promise<void> {
    for (let left = deadline - performance.now(); left > 0; left = deadline - performance.now()) {
      const sinceCounter = this.observer.counter(pid);
      if (!(await this.stillThere(top, call))) return;
      const changed = await this.observer.waitForChange(pid, {
        sinceCounter,
        timeoutMs: Math.min(left, DEFAULT_PRESS_QUIET_MS),
        signal: call?.signal,
      });
      if (!changed) return;
    }
  }

  /**
   * Whether the window `top` is still there. Its app gone may leave a read unanswered for a while (a Wayland
   * app on KWin): a window that does not answer within STILL_THERE_MS is taken as gone.
   */
  private async stillThere(top: string, call?: CallOptions): Promise<boolean> {
    // Not the request's own time limit: cancelling a request the helper is in the middle of (a sway IPC
    // exchange) is not free. The read goes on unwatched; a late answer is dropped.
    const read = this.readAlone([top], call).then(
      (found) => found.size > 0,
      (error: unknown) => {
        if (call?.signal?.aborted) throw error;
        return false;
      },
    );
    const late = sleep(STILL_THERE_MS, false, { signal: call?.signal });
    const there = await Promise.race([read, late]);
    read.catch(() => {});
    return there;
  }

  /**
   * The state the next action most often depends on: whether a dialog's default button (what Enter presses) is
   * enabled. An app may decide it a while after its other reactions have quieted (GTK's file chooser checks a
   * typed name about 100 ms later, its Save disabled meanwhile). While the window shows its default button
   * disabled, the answer waits up to DEFAULT_BUTTON_MS, reading that button again at each change the app reports,
   * until it is enabled; an app that keeps it disabled costs that wait once per action. Only those buttons are
   * read again (a walk of a large dialog would cost more than the wait), and the tree keeps the counter of
   * `after`, so it never stands in for a walk later.
   */
  private async pendingDefault(
    scope: Scope,
    after: AppWalk,
    call?: CallOptions,
  ): Promise<AppWalk | undefined> {
    const { pid } = scope.app;
    let pending = disabledDefaults(after.node, scope.top);
    if (pending.length === 0) return undefined;
    const deadline = performance.now() + DEFAULT_BUTTON_MS;
    let node = after.node;
    for (let left = DEFAULT_BUTTON_MS; left > 0 && pending.length > 0; left = deadline - performance.now()) {
      const sinceCounter = this.observer.counter(pid);
      const changed = await this.observer.waitForChange(pid, {
        sinceCounter,
        timeoutMs: left,
        signal: call?.signal,
      });
      if (!changed) break;
      const fresh = await this.readAlone(
        pending.map((n) => n.id),
        call,
      );
      node = replaced(node, fresh);
      pending = [...fresh.values()].filter(isDisabledDefault);
    }
    return node === after.node ? undefined : { ...after, node, json: JSON.stringify(node) };
  }

  /** Each element read again on its own, without its children, by handle; those gone are left out. */
  private async readAlone(ids: readonly string[], call?: CallOptions): Promise<Map<string, ElementNode>> {
    const level = { depth: 0, maxNodes: 1, includeHidden: false, maxValueLength: SNAPSHOT_VALUE_CHARS };
    const reads = await Promise.all(
      ids.map((id) =>
        this.port.call('ax.snapshot', { ...level, root: id }, call).then(
          ({ root }) => root,
          (error: unknown) => {
            if (isGone(error)) return undefined;
            throw error;
          },
        ),
      ),
    );
    return new Map(reads.flatMap((root) => (root ? [[root.id, root] as const] : [])));
  }

  /** Whether the app's events since `counter` named their elements and changed each only in place. */
  private inPlace(pid: number, counter: number): boolean {
    const touched = this.observer.touchedSince(pid, counter);
    return touched !== undefined && [...touched.values()].every((kinds) => [...kinds].every(isLocal));
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
