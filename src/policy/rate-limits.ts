/**
 * Rate limits: calls per second and per minute, calls running at once, write actions per second and
 * scripts per minute. A call over a limit is refused at once with how long to wait; nothing is queued, so a
 * hammering agent never blocks the server. Windows slide over the times of admitted calls; no timers run.
 */
import { plural } from '../text.js';
import { environmentOrigin, type RateLimits, type SettingOrigin } from '../config.js';
import { MacpilotError } from '../errors.js';
import { isWrite, toolsetOf } from '../toolsets.js';
import type { Guard, ToolCall } from './pipeline.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** What a refusal for too many concurrent calls suggests: running calls end at no foreseeable time. */
const CONCURRENT_RETRY_MS = 250;

/** The times of the calls admitted within the last `spanMs`. */
class SlidingWindow {
  private readonly times: number[] = [];

  constructor(
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
}

export class RateLimiter implements Guard {
  private running = 0;
  private readonly calls: SlidingWindow[];
  private readonly writes: SlidingWindow;
  private readonly scripts: SlidingWindow;

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = () => performance.now(),
    private readonly origin: SettingOrigin = environmentOrigin('rateLimits'),
  ) {
    this.calls = [
      new SlidingWindow(limits.callsPerSecond, SECOND, `${plural(limits.callsPerSecond, 'call')} per second`),
      new SlidingWindow(limits.callsPerMinute, MINUTE, `${plural(limits.callsPerMinute, 'call')} per minute`),
    ];
    this.writes = new SlidingWindow(
      limits.writesPerSecond,
      SECOND,
      `${plural(limits.writesPerSecond, 'write action')} per second`,
    );
    this.scripts = new SlidingWindow(
      limits.scriptsPerMinute,
      MINUTE,
      `${plural(limits.scriptsPerMinute, 'script')} per minute`,
    );
  }

  async admit(call: ToolCall): Promise<() => void> {
    const now = this.now();
    if (this.running >= this.limits.concurrent) {
      throw overLimit(this.origin, call, `${this.limits.concurrent} calls at once`, CONCURRENT_RETRY_MS);
    }
    const windows = [
      ...this.calls,
      ...(isWrite(call.tool, call.args) ? [this.writes] : []),
      ...(toolsetOf(call.tool.toolset).runsScripts ? [this.scripts] : []),
    ];
    for (const window of windows) {
      const wait = window.waitMs(now);
      if (wait > 0) throw overLimit(this.origin, call, window.describe, wait);
    }
    for (const window of windows) window.record(now);
    this.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
    };
  }
}

function overLimit(
  origin: SettingOrigin,
  call: ToolCall,
  limit: string,
  retryAfterMs: number,
): MacpilotError {
  return new MacpilotError({
    what: `${call.tool.name} refused: rate limit of ${limit} reached; retry after ${retryAfterMs} ms`,
    why: `macpilot admits at most ${limit} (retry_after_ms: ${retryAfterMs})`,
    next: `wait ${retryAfterMs} ms and call again; a human can raise the limit (set by ${origin.where}): ${origin.change('calls_per_second=40')}`,
    kind: 'rate_limited',
    refusal: true,
  });
}
