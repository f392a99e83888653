/**
 * UI change events per app: subscribes to the helper's `observe.changed` notifications (starting them on first
 * need and again after every helper restart) and keeps, per pid, a change counter, the time of the last change
 * and which elements the recent changes touched, so that actions can settle and waits can re-check when an
 * app's UI moves rather than on a timer, and a tree read earlier can be known current or patched.
 */
import { ClientErrorCode, HelperError } from '../../helper-client/errors.js';
import type { NotificationParams } from '../../helper-client/protocol.js';
import type { HelperPort } from './port.js';

/** The kinds of events seen for each element, by handle. */
export type Touched = Map<string, Set<string>>;

interface Activity {
  /** Notifications seen for the app; a caller keeps a value and asks whether it moved. */
  counter: number;
  /** performance.now() of the latest one. */
  lastChange: number;
  /** The elements each recent notification named, by its counter; undefined: it named none. */
  touches: Map<number, NotificationParams<'observe.changed'>['elements']>;
  /** The quiet window this app's reactions have shown they need beyond the caller's floor (ms). */
  learnedQuietMs: number;
  /** Set when an action was answered: performance.now() of the last change before that answer. */
  answeredAfter?: number;
  /** The app once stayed busy through a learned window: it changes on its own, so nothing is learned from it. */
  restless: boolean;
}

/** Notifications per app whose elements are kept: past them, what changed since an old counter is unknown. */
const KEPT_TOUCHES = 256;

/**
 * The longest a learned quiet window grows. A change that comes later than this after the one before it is not
 * the same reaction going on; an app that needs more is busy, and the settle cap decides for it.
 */
const LEARNED_QUIET_CAP_MS = 200;
/** A learned window is that gap with this margin: the next reaction may pause a little longer. */
const LEARNED_MARGIN = 1.25;
/** Each answer the app did not prove early shrinks the learned window by this factor, back toward the floor. */
const LEARNED_DECAY = 0.8;

export interface QuietOptions {
  /** How long the app must go without a change. */
  quietMs: number;
  /** Give up after this long. */
  maxMs: number;
  signal?: AbortSignal;
}

export interface ChangeOptions {
  /** A counter from counter(): any change after it counts. */
  sinceCounter: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

const cancelled = () => new HelperError('', ClientErrorCode.Cancelled, 'the request was cancelled');

/** Resolves after ms; fails as cancelled when the signal aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class Observer {
  private readonly activity = new Map<number, Activity>();
  private readonly listeners = new Map<number, Set<() => void>>();
  /** Set once something needed events: from then on every helper (re)start is subscribed. */
  private starting: Promise<boolean> | undefined;
  /** Moves when a window opens, closes or changes state in any app, an app is first heard of, or events restart. */
  private layoutCounter = 0;

  constructor(private readonly port: HelperPort) {
    port.onNotification?.('observe.changed', (params) => this.record(params));
    port.onReady?.(() => {
      // Events sent while no helper listened are lost: nothing read before can be known current.
      this.layoutCounter++;
      if (this.starting) this.starting = this.start();
    });
  }

  /**
   * The desktop's layout counter: it moves when a window appears, goes or changes state in any app, when an app
   * not heard from before reports a change, and when the helper restarts. A tree read under one value is not
   * known current under another.
   */
  layout(): number {
    return this.layoutCounter;
  }

  /**
   * Which elements the app's changes after `counter` touched, with their events' kinds; undefined when that is
   * not known (a notification named no elements, or it is too long ago).
   */
  touchedSince(pid: number, counter: number): Touched | undefined {
    const activity = this.activity.get(pid);
    const touched: Touched = new Map();
    if (!activity) return counter === 0 ? touched : undefined;
    for (let n = counter + 1; n <= activity.counter; n++) {
      const elements = activity.touches.get(n);
      if (!elements) return undefined;
      for (const { id, kinds } of elements) {
        const seen = touched.get(id) ?? new Set();
        for (const kind of kinds) seen.add(kind);
        touched.set(id, seen);
      }
    }
    return touched;
  }

  /** Whether change events flow from the helper; the first call subscribes. */
  available(): Promise<boolean> {
    if (!this.port.onNotification) return Promise.resolve(false);
    this.starting ??= this.start();
    return this.starting;
  }

  /** The app's change counter now: pass it to changedSince or waitForChange later. */
  counter(pid: number): number {
    return this.activity.get(pid)?.counter ?? 0;
  }

  changedSince(pid: number, counter: number): boolean {
    return this.counter(pid) > counter;
  }

  /** Whether the app has ever reported a change: apps that never do are watched by polling instead. */
  reportsChanges(pid: number): boolean {
    return this.activity.has(pid);
  }

  /**
   * How long the app must be quiet before an action's answer is read: `floorMs`, or longer when this app showed
   * that it pauses longer within one reaction (a change came soon after an earlier answer, with no new action
   * in between). What was learned decays with each answer that no late change followed.
   */
  quietWindow(pid: number, floorMs: number): number {
    const activity = this.activity.get(pid);
    if (!activity || activity.restless) return floorMs;
    return Math.max(floorMs, Math.round(activity.learnedQuietMs));
  }

  /** An action is about to run on the app: its own changes are not late ones of the previous answer. */
  acting(pid: number): void {
    const activity = this.activity.get(pid);
    if (activity?.answeredAfter === undefined) return;
    activity.answeredAfter = undefined;
    activity.learnedQuietMs *= LEARNED_DECAY;
  }

  /** An action on the app was answered: a change that still follows its reaction teaches a longer window. */
  answered(pid: number): void {
    this.acting(pid);
    const activity = this.activity.get(pid);
    if (activity) activity.answeredAfter = activity.lastChange;
  }

  /** The app went on changing through a learned quiet window: it is busy on its own, so learn nothing from it. */
  restless(pid: number): void {
    const activity = this.activity.get(pid);
    if (!activity) return;
    activity.restless = true;
    activity.learnedQuietMs = 0;
  }

  /** Resolves true once the app has been quiet for quietMs, false if maxMs passes first. */
  async waitForQuiet(pid: number, options: QuietOptions): Promise<boolean> {
    const deadline = performance.now() + options.maxMs;
    for (;;) {
      const now = performance.now();
      const quietAt = (this.activity.get(pid)?.lastChange ?? Number.NEGATIVE_INFINITY) + options.quietMs;
      if (quietAt <= now) return true;
      if (now >= deadline) return false;
      await pause(Math.min(quietAt, deadline) - now, options.signal);
    }
  }

  /** Resolves true as soon as the app's counter passes sinceCounter, false after timeoutMs. */
  waitForChange(pid: number, options: ChangeOptions): Promise<boolean> {
    if (options.signal?.aborted) return Promise.reject(cancelled());
    if (this.changedSince(pid, options.sinceCounter)) return Promise.resolve(true);
    return new Promise((resolve, reject) => {
      const set = this.listeners.get(pid) ?? new Set();
      this.listeners.set(pid, set);
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        set.delete(onChange);
        if (set.size === 0 && this.listeners.get(pid) === set) this.listeners.delete(pid);
        options.signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const onChange = () => {
        if (this.changedSince(pid, options.sinceCounter)) finish(() => resolve(true));
      };
      const onAbort = () => finish(() => reject(cancelled()));
      const timer = setTimeout(() => finish(() => resolve(false)), Math.max(0, options.timeoutMs));
      set.add(onChange);
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private start(): Promise<boolean> {
    return this.port.call('observe.start', {}).then(
      () => true,
      () => false, // not on this platform or helper: callers poll instead
    );
  }

  private record({ pid, kinds, elements }: NotificationParams<'observe.changed'>): void {
    let activity = this.activity.get(pid);
    if (!activity || kinds.some((kind) => kind.startsWith('window:'))) this.layoutCounter++;
    activity ??= { counter: 0, lastChange: 0, touches: new Map(), learnedQuietMs: 0, restless: false };
    this.activity.set(pid, activity);
    const now = performance.now();
    if (activity.answeredAfter !== undefined) {
      const gap = now - activity.answeredAfter;
      if (gap <= LEARNED_QUIET_CAP_MS)
        activity.learnedQuietMs = Math.min(
          LEARNED_QUIET_CAP_MS,
          Math.max(activity.learnedQuietMs, gap * LEARNED_MARGIN),
        );
      activity.answeredAfter = undefined;
    }
    activity.counter++;
    activity.lastChange = now;
    activity.touches.set(activity.counter, elements);
    activity.touches.delete(activity.counter - KEPT_TOUCHES);
    for (const listener of [...(this.listeners.get(pid) ?? [])]) listener();
  }
}
