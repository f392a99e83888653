/**
 * Rate limits: calls per second and per minute, calls running at once, write actions per second and
 * scripts per minute. A call over a limit is refused at once with how long to wait; nothing is queued, so a
 * hammering agent never blocks the server. Windows slide over the times of admitted calls; no timers run.
 */
import { plural } from '../text.js';
import {
  environmentOrigin,
  MAX_RATE_LIMIT,
  type RateLimits,
  rateLimitsSetting,
  type SettingOrigin,
} from '../config.js';
import { MacpilotError } from '../errors.js';
import { isWrite, toolsetOf } from '../toolsets.js';
import type { CallOutcome, Guard, ToolCall } from './pipeline.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** What a refusal for too many concurrent calls suggests: running calls end at no foreseeable time. */
const CONCURRENT_RETRY_MS = 250;

/** The times of the calls admitted within the last `spanMs`. */
class SlidingWindow {
  private readonly times: number[] = [];

  constructor(
    readonly key: keyof RateLimits,
    readonly limit: number,
    readonly spanMs: number,
    readonly describe: string,
  ) {}

  /** 0 when one more call fits now, else the milliseconds until the oldest call leaves the window. */
  waitMs(now: number): number {
    while (this.times.length > 0 && (this.times[0] as number) <= now - this.spanMs) this.times.shift();
    if (this.times.length < this.limit) return 0;
    return Math.max(1, Math.ceil((this.times[0] as number) + this.spanMs - now));
  }

  record(now: number): void {
    this.times.push(now);
  }

  /** A call recorded at `time` takes its place back (it was refused: nothing was done). */
  forget(time: number): void {
    const at = this.times.lastIndexOf(time);
    if (at >= 0) this.times.splice(at, 1);
  }
}

export class RateLimiter implements Guard {
  private running = 0;
  private readonly calls: SlidingWindow[];
  private readonly writes: SlidingWindow;
  private readonly scripts: SlidingWindow;
  /** The action windows each admitted call counts in, and when: a call then refused is taken back out. */
  private readonly counted = new WeakMap<ToolCall, { windows: SlidingWindow[]; at: number }>();

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = () => performance.now(),
    private readonly origin: SettingOrigin = environmentOrigin('rateLimits'),
  ) {
    const window = (key: keyof RateLimits, spanMs: number, what: string) =>
      new SlidingWindow(
        key,
        limits[key],
        spanMs,
        `${plural(limits[key], what)} per ${spanMs === SECOND ? 'second' : 'minute'}`,
      );
    this.calls = [window('callsPerSecond', SECOND, 'call'), window('callsPerMinute', MINUTE, 'call')];
    this.writes = window('writesPerSecond', SECOND, 'write action');
    this.scripts = window('scriptsPerMinute', MINUTE, 'script');
  }

  async admit(call: ToolCall): Promise<() => void> {
    const now = this.now();
    if (this.running >= this.limits.concurrent) {
      throw this.overLimit(
        call,
        'concurrent',
        `${plural(this.limits.concurrent, 'call')} at once`,
        CONCURRENT_RETRY_MS,
      );
    }
    const windows = [
      ...this.calls,
      ...(isWrite(call.tool, call.args) ? [this.writes] : []),
      ...(toolsetOf(call.tool.toolset).runsScripts ? [this.scripts] : []),
    ];
    for (const window of windows) {
      const wait = window.waitMs(now);
      if (wait > 0) throw this.overLimit(call, window.key, window.describe, wait);
    }
    for (const window of windows) window.record(now);
    this.counted.set(call, { windows: windows.filter((w) => !this.calls.includes(w)), at: now });
    this.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
    };
  }

  /**
   * A call a setting refused did nothing: it no longer counts against the write actions and scripts allowed (an
   * agent refused ten times in a second, in the background say, could otherwise not act in the next one). It still
   * counts as a call.
   */
  settled(call: ToolCall, outcome: CallOutcome): void {
    const counted = this.counted.get(call);
    this.counted.delete(call);
    if (counted && outcome.refused) for (const window of counted.windows) window.forget(counted.at);
  }

  private overLimit(
    call: ToolCall,
    key: keyof RateLimits,
    limit: string,
    retryAfterMs: number,
  ): MacpilotError {
    // The limit reached, doubled; the others the person set kept as they are.
    const raised = rateLimitsSetting(this.limits, key, Math.min(this.limits[key] * 2, MAX_RATE_LIMIT));
    return new MacpilotError({
      what: `${call.tool.name} refused: rate limit of ${limit} reached; retry after ${retryAfterMs} ms`,
      why: `macpilot admits at most ${limit} (retry_after_ms: ${retryAfterMs})`,
      next: `wait ${retryAfterMs} ms and call again; a human can raise the limit (${this.origin.where}): ${this.origin.changeAndRestart(raised)}`,
      kind: 'rate_limited',
      refusal: true,
    });
  }
}
