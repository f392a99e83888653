/**
 * Recording a person's demonstration: while a recording runs, the helper sends each key press and mouse button
 * (`record.input`); each press is resolved at once, while the UI still looks as it did (the element under a
 * click, by path; the app and field keys go to), and stop folds the presses into run_workflow steps
 * (record-steps.ts). One recording at a time per server. What was typed stays in memory and in the answer of
 * stop: it is never logged.
 */
import { AsyncResource } from 'node:async_hooks';
import { MacpilotError } from '../../errors.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { AppInfo, RecordedInput } from '../../helper-client/protocol.js';
import { keyNamed, type Platform } from '../../keys.js';
import type { Kernel } from '../kernel/kernel.js';
import { parsePath } from '../kernel/paths.js';
import { AppRefused } from '../kernel/resolve.js';
import { type ClickTarget, foldSteps, type RecordedEvent } from './record-steps.js';
import type { RecordedStep, RecordingResult } from '../kernel/results.js';
import type { Walked } from '../kernel/tree.js';
import { pause } from '../kernel/observer.js';
import { MENU_ROLES } from '../kernel/roles.js';

/**
 * How long a menu opened by a recorded click may take to show its items, and how often it is looked at. A busy
 * machine shows one late; a click on an item not read by then is resolved by what is at its point when the
 * recorder gets to it, which may be the dialog the item opened.
 */
const MENU_SHOW_MS = 3_000;
const MENU_POLL_MS = 40;
/** Levels walked below an opened menu: its items, and the items of a container between. */
const MENU_DEPTH = 3;

/** An item of a menu the person opened, where it showed. */
interface ShownItem {
  target: ClickTarget;
  node: Walked;
  bounds: { x: number; y: number; width: number; height: number };
}

/** Why a press makes no step, as stop_recording reports it. */
const LEFT_OUT = {
  denied: 'in an app this server may not use',
  readOnly:
    'in an app the agent may read but not act on (a terminal, system settings): its replay would be refused, and what is typed there (a sudo password) has no password field to tell it by',
  otherApp: 'in another app than the one recorded',
  secure: 'typed into a password field (add a set_value step for it yourself)',
  nothing: 'on no element of the recorded app',
} as const;

export interface RecordingStatus {
  /** The app recorded; undefined: every app. */
  app?: string;
  startedAt: number;
  /** Presses heard so far. */
  events: number;
}

interface Active {
  app?: AppInfo;
  /** The session that started it (its end's signal), the only one that may stop it; absent: any. */
  owner?: AbortSignal;
  platform: Platform;
  startedAt: number;
  events: Promise<RecordedEvent>[];
  /** Key presses and button presses heard (releases not counted). */
  presses: number;
  stopListening: () => void;
  /** Clicks are resolved one after another: a click on a menu item needs the menu its last click opened. */
  clicks: Promise<unknown>;
  /**
   * The items of the menus the person opened, read as each opened: a popup menu is no part of the hit test,
   * and by the time a click on its item is heard the menu may be closing.
   */
  openMenu: ShownItem[];
  /**
   * Why the keys of the current run of typed characters make no step, if they do not: read at its first key.
   * Any other key (Tab, Enter, a shortcut) or a click may move the focus, to a password field say, so the key
   * after it starts a new run.
   */
  keysLeftOut?: Promise<string | undefined>;
  typing: boolean;
  /** When the last key was heard (performance.now()): after a pause the focus may have moved, unheard. */
  lastKeyAt: number;
}

/** A pause in typing after which the keys that follow are checked again for where they go. */
const RUN_PAUSE_MS = 500;

/** A recording as it goes, for a watching person: its app, and the steps its presses fold into so far. */
export interface RecordingView {
  app?: string;
  steps: RecordedStep[];
}

export class Recorder {
  private active: Active | undefined;
  private starting = false;
  private readonly watchers = new Set<(view: RecordingView | undefined) => void>();

  constructor(private readonly kernel: Kernel) {}

  /**
   * `watcher` hears the recording's steps each time a press is heard, and undefined when it ends; the returned
   * function stops it.
   */
  watch(watcher: (view: RecordingView | undefined) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private tell(active: Active | undefined): void {
    if (this.watchers.size === 0) return;
    const told = (view: RecordingView | undefined) => {
      for (const watcher of this.watchers) watcher(view);
    };
    if (!active) return told(undefined);
    void Promise.all(active.events).then((events) => {
      if (this.active === active) told({ app: active.app?.name, steps: foldSteps(events).steps });
    });
  }

  /** The recording running now, if one is. */
  get status(): RecordingStatus | undefined {
    const active = this.active;
    if (!active) return undefined;
    return { app: active.app?.name, startedAt: active.startedAt, events: active.presses };
  }

  /**
   * Starts recording every app, or only `app`; `until` ends the recording when it aborts (the session that
   * started it ended), its steps then dropped.
   */
  async start(app: string | undefined, until?: AbortSignal, call?: CallOptions): Promise<RecordingResult> {
    return this.kernel.guard('start recording', async () => {
      if (this.active || this.starting) {
        const running = this.status;
        throw new MacpilotError({
          what: 'A recording is already running',
          why: `only one recording runs at a time${running ? `, and one of ${running.app ?? 'every app'} began at ${new Date(running.startedAt).toISOString()}` : ''}`,
          next: 'call stop_recording first: it answers the steps recorded so far',
          kind: 'recording_already_running',
        });
      }
      const { port } = this.kernel;
      if (!port.onNotification) {
        throw new MacpilotError({
          what: 'Recording is not available',
          why: 'this helper connection sends no notifications',
          next: 'run macpilot with its own platform helper',
          kind: 'not_available',
        });
      }
      this.starting = true;
      try {
        const recorded = app === undefined ? undefined : await this.kernel.resolver.app(app, call);
        const platform = await this.kernel.platform(call);
        const active: Active = {
          ...(recorded ? { app: recorded } : {}),
          ...(until ? { owner: until } : {}),
          platform,
          startedAt: Date.now(),
          events: [],
          presses: 0,
          clicks: Promise.resolve(),
          openMenu: [],
          stopListening: () => {},
          typing: false,
          lastKeyAt: 0,
        };
        // Presses are resolved in start_recording's own context, so the app policy sees a read-only call: a
        // denied app is left out as refused; an app the agent may read but not act on (a terminal) is left out
        // by asking the policy about an action (mayActOn).
        const hear = AsyncResource.bind((input: RecordedInput) => this.heard(active, input));
        const heard = port.onNotification('record.input', hear);
        // A helper that restarts (it lost its display, it crashed) is asked to record again.
        const restarted = port.onReady?.(() => {
          if (this.active === active) void port.call('record.start', {}).catch(() => {});
        });
        active.stopListening = () => {
          heard();
          restarted?.();
        };
        try {
          await port.call('record.start', {}, call);
        } catch (error) {
          active.stopListening();
          throw error;
        }
        this.active = active;
        this.tell(active);
        const ended = () => void this.end(active).catch(() => {});
        if (until?.aborted) ended();
        else if (until) {
          // Taken off at stop: a session lives on after its recordings, which would pile up on its signal.
          until.addEventListener('abort', ended, { once: true });
          const stopListening = active.stopListening;
          active.stopListening = () => {
            stopListening();
            until.removeEventListener('abort', ended);
          };
        }
        return { kind: 'recording', state: 'started', ...(recorded ? { app: recorded.name } : {}) };
      } finally {
        this.starting = false;
      }
    });
  }

  /**
   * Stops the recording and answers its steps; `session`: the stopping session's end signal, refused when another
   * session started the recording (what a person typed goes only to the session that asked for it).
   */
  async stop(call?: CallOptions, session?: AbortSignal): Promise<RecordingResult> {
    const active = this.active;
    if (!active) {
      throw new MacpilotError({
        what: 'No recording is running',
        why: 'stop_recording ends a recording that start_recording began: none did, or it already ended (a recording ends with the session that started it)',
        next: 'call start_recording, let the person do what they want recorded, then call stop_recording',
        kind: 'no_recording_running',
      });
    }
    if (active.owner !== undefined && session !== undefined && session !== active.owner) {
      throw new MacpilotError({
        what: 'The recording running belongs to another session',
        why: 'another client session of this server started it, and its steps (with what was typed) go only to that session',
        next: 'let that session stop it, or wait: it ends when that session ends',
        kind: 'recording_of_another_session',
      });
    }
    const events = await this.end(active, call);
    const { steps, leftOut } = foldSteps(events);
    return {
      kind: 'recording',
      state: 'stopped',
      ...(active.app ? { app: active.app.name } : {}),
      events: events.filter((e) => e.kind !== 'release').length,
      elapsedMs: Date.now() - active.startedAt,
      steps,
      leftOut,
    };
  }

  private async end(active: Active, call?: CallOptions): Promise<RecordedEvent[]> {
    if (this.active !== active) return [];
    this.active = undefined;
    this.tell(undefined);
    // A helper that cannot answer (it went away) records nothing more either: what was heard still counts.
    await this.kernel.port.call('record.stop', {}, call).catch(() => undefined);
    active.stopListening();
    return Promise.all(active.events);
  }

  private heard(active: Active, input: RecordedInput): void {
    this.hear(active, input);
    this.tell(active);
  }

  private hear(active: Active, input: RecordedInput): void {
    const { modifiers, time } = input;
    if (input.kind !== 'buttonUp') active.presses++;
    if (input.kind === 'keyDown') {
      active.openMenu = [];
      // A new run: after a key that may move the focus, or a pause in which another program (a window
      // switcher, an agent) may have moved it without a key or a click.
      const now = performance.now();
      const paused = now - active.lastKeyAt > RUN_PAUSE_MS;
      active.lastKeyAt = now;
      if (!active.typing || !active.keysLeftOut || paused) active.keysLeftOut = this.keysGoTo(active);
      const key = input.code === undefined ? undefined : keyNamed(input.code, active.platform);
      const text = input.text;
      active.typing = text !== undefined && modifiers.every((m) => m === 'shift');
      active.events.push(
        active.keysLeftOut.then((leftOut) => ({
          kind: 'key',
          modifiers,
          time,
          ...(key ? { key } : {}),
          ...(text !== undefined ? { text } : {}),
          ...(leftOut ? { leftOut } : {}),
        })),
      );
      return;
    }
    active.typing = false;
    const { button, at } = input;
    if (!button || !at) return;
    if (input.kind === 'buttonUp') {
      active.events.push(Promise.resolve({ kind: 'release', button, at, time }));
      return;
    }
    const press = { kind: 'press' as const, button, at, modifiers, time };
    const found = active.clicks.then(() => this.under(active, at));
    active.clicks = found.catch(() => {});
    active.events.push(found.then((target) => ({ ...press, ...target })));
  }

  /** What a click at `at` landed on, or why it makes no step; nothing accessible there: the point itself. */
  private async under(
    active: Active,
    at: { x: number; y: number },
  ): Promise<{ target?: ClickTarget; leftOut?: string }> {
    const item = itemAt(active.openMenu, at);
    if (item) {
      if (item.target.menu?.opensMenu) await this.readMenu(active, item.target, item.node);
      else active.openMenu = [];
      return { target: item.target };
    }
    active.openMenu = [];
    try {
      const { element } = await this.kernel.port.call('ax.elementAt', at);
      if (!element) return active.app ? { leftOut: LEFT_OUT.nothing } : {};
      if (active.app && element.pid !== active.app.pid) return { leftOut: LEFT_OUT.otherApp };
      const node = await this.kernel.resolver.locate(element);
      const app = { pid: element.pid, name: parsePath(node.path).app };
      if (!this.kernel.resolver.mayActOn(app)) return { leftOut: LEFT_OUT.readOnly };
      const target = targetOf(node);
      if (target.menu?.opensMenu) await this.readMenu(active, target, node);
      return { target };
    } catch (error) {
      if (error instanceof AppRefused) return { leftOut: LEFT_OUT.denied };
      return active.app ? { leftOut: LEFT_OUT.nothing } : {};
    }
  }

  /**
   * Reads the items of the menu a click opened (added to those of the menus open around it), once they show;
   * a menu that does not open in time leaves its items unknown (a click on one is then resolved by hit test).
   */
  private async readMenu(active: Active, opener: ClickTarget, node: Walked): Promise<void> {
    try {
      const path = parsePath(node.path);
      const start = { handle: node.info.id, path, app: { pid: node.info.pid, name: path.app } };
      const deadline = Date.now() + MENU_SHOW_MS;
      for (;;) {
        const limits = { depth: MENU_DEPTH, maxNodes: 2_000, includeHidden: false, includeBounds: true };
        const { tree } = await this.kernel.walk(start, limits);
        const items = shownItems(tree, opener.menu?.names ?? []);
        if (items.length > 0 || Date.now() >= deadline) {
          active.openMenu = [...active.openMenu, ...items];
          return;
        }
        await pause(MENU_POLL_MS, undefined);
      }
    } catch {
      // The menu went away (or never came): its items stay unknown.
    }
  }

  /** Why the keys now pressed make no step (a denied app, another app, a password field), if they do not. */
  private async keysGoTo(active: Active): Promise<string | undefined> {
    try {
      const { element } = await this.kernel.port.call('ax.focused', {});
      if (!element) return undefined;
      if (active.app && element.pid !== active.app.pid) return LEFT_OUT.otherApp;
      const app = await this.kernel.resolver.appOf(element.pid);
      if (!this.kernel.resolver.mayActOn(app)) return LEFT_OUT.readOnly;
      return element.states.includes('secure') ? LEFT_OUT.secure : undefined;
    } catch (error) {
      return error instanceof AppRefused ? LEFT_OUT.denied : undefined;
    }
  }
}

/** A located element as a click target: its path, its app, and its menu bar names when it is a menu entry. */
function targetOf(node: Walked): ClickTarget {
  const path = parsePath(node.path);
  const target: ClickTarget = {
    path: node.path,
    app: path.app,
    ...(node.info.states.includes('editable') ? { editable: true } : {}),
  };
  const bar = path.segments.findIndex((s) => s.role === 'menubar');
  if (bar < 0 || !MENU_ROLES.has(node.role)) return target;
  const names = path.segments
    .slice(bar + 1)
    .flatMap((s) => (MENU_ROLES.has(s.role) && s.name !== undefined ? [s.name.trim()] : []));
  if (names.length === 0) return target;
  return { ...target, menu: { names, opensMenu: node.role === 'menu' || node.info.childCount > 0 } };
}

/** The named menu entries under an opened menu that show on screen, with their names from the menu bar. */
function shownItems(tree: Walked, names: readonly string[]): ShownItem[] {
  const items: ShownItem[] = [];
  const visit = (node: Walked, above: readonly string[]) => {
    for (const child of node.children) {
      const named = MENU_ROLES.has(child.role) && child.info.name.trim() !== '';
      const bounds = child.info.bounds;
      if (named && bounds && bounds.width > 0 && bounds.height > 0) {
        const path = parsePath(child.path);
        const opensMenu = child.role === 'menu' || child.info.childCount > 0;
        const menu = { names: [...above, child.info.name.trim()], opensMenu };
        items.push({ target: { path: child.path, app: path.app, menu }, node: child, bounds });
      }
      if (!named) visit(child, above);
    }
  };
  visit(tree, names);
  return items;
}

/** The smallest shown item under a point (a submenu's item, over the menu it opened from). */
function itemAt(items: readonly ShownItem[], at: { x: number; y: number }): ShownItem | undefined {
  const under = items.filter(
    ({ bounds: b }) => at.x >= b.x && at.x < b.x + b.width && at.y >= b.y && at.y < b.y + b.height,
  );
  under.sort((a, b) => a.bounds.width * a.bounds.height - b.bounds.width * b.bounds.height);
  return under[0];
}
