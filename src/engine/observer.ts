/**
 * UI change events per app: subscribes to the helper's `observe.changed` notifications (starting them on first
 * need and again after every helper restart) and keeps, per pid, a change counter and the time of the last
 * change, so that actions can settle and waits can re-check when an app's UI moves rather than on a timer.
 */
import { ClientErrorCode, HelperError } from '../helper/errors.js';
import type { HelperPort } from './port.js';

interface Activity {
  /** Notifications seen for the app; a caller keeps a value and asks whether it moved. */
  counter: number;
  /** performance.now() of the latest one. */
  lastChange: number;
}

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

  constructor(private readonly port: HelperPort) {
    port.onNotification?.('observe.changed', ({ pid }) => this.record(pid));
    port.onReady?.(() => {
      if (this.starting) this.starting = this.start();
    });
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

  private record(pid: number): void {
    const activity = this.activity.get(pid) ?? { counter: 0, lastChange: 0 };
    this.activity.set(pid, activity);
    activity.counter++;
    activity.lastChange = performance.now();
    for (const listener of [...(this.listeners.get(pid) ?? [])]) listener();
  }
}
