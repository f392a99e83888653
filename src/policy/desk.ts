/**
 * The person at the desk over every agent of this server. `macpilot stop` (src/control.ts) cancels every call in
 * flight, in every session, and pauses actions (write calls) until `macpilot resume` or the end of the pause;
 * reading goes on. A cancelled input call stops between two keys in the helper and lets go of what it held.
 */
import { setMaxListeners } from 'node:events';
import { MacpilotError } from '../errors.js';
import { isWrite } from '../toolsets.js';
import type { Guard, ToolCall } from './pipeline.js';

/** How long `macpilot stop` pauses actions when it names no time. */
export const DEFAULT_PAUSE_MS = 10 * 60_000;
/** The longest pause: a forgotten stop ends by itself. */
export const MAX_PAUSE_MS = 24 * 60 * 60_000;

export interface StopReport {
  /** Calls in flight that were cancelled. */
  cancelled: number;
  /** Date.now() when actions may run again. */
  pausedUntil: number;
}

/** What a call that `macpilot stop` cut short answers, whatever the work it stopped said. */
export class StoppedAtTheDesk extends MacpilotError {}

/** The most abort listeners one call's signal carries before Node warns: helper requests in flight at once. */
const CALL_LISTENERS = 1000;

export class Desk implements Guard {
  private stops = new AbortController();
  private pausedUntil = 0;
  private stoppedBy: StopPlace = 'command';
  private inFlight = 0;
  private readonly stopListeners: (() => void)[] = [];

  /** `listener` runs at each stop (held keys and buttons are released there). */
  onStop(listener: () => void): void {
    this.stopListeners.push(listener);
  }

  /** Runs one tool call: its signal is also aborted by a stop. */
  async run<T>(callSignal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.inFlight++;
    const signal = AbortSignal.any([callSignal, this.stops.signal]);
    // One call may wait on many helper requests at once (a tree walked in parallel), each listening for the
    // abort: so many are by design, not a leak, and Node's warning about them would only alarm a person.
    setMaxListeners(CALL_LISTENERS, signal);
    try {
      return await work(signal);
    } finally {
      this.inFlight--;
    }
  }

  /** `by`: where the person stopped it (said to the agents). */
  stop(pauseMs = DEFAULT_PAUSE_MS, by: StopPlace = 'command'): StopReport {
    const cancelled = this.inFlight;
    this.pausedUntil = Date.now() + Math.min(Math.max(0, pauseMs), MAX_PAUSE_MS);
    this.stoppedBy = by;
    this.stops.abort(
      new StoppedAtTheDesk({ ...pausedError(this.pausedUntil, by), kind: 'stopped_at_the_desk' }),
    );
    this.stops = new AbortController();
    for (const listener of this.stopListeners) listener();
    return { cancelled, pausedUntil: this.pausedUntil };
  }

  resume(): void {
    this.pausedUntil = 0;
  }

  /** Actions paused until `until` (Date.now() ms), as a stop before this server started asked (`by`: where). */
  pauseUntil(until: number, by: StopPlace = 'command'): void {
    this.pausedUntil = Math.min(until, Date.now() + MAX_PAUSE_MS);
    this.stoppedBy = by;
  }

  /** Date.now() when actions may run again; undefined when they may now. */
  paused(): number | undefined {
    return this.pausedUntil > Date.now() ? this.pausedUntil : undefined;
  }

  admit(call: ToolCall): Promise<undefined> {
    const until = this.paused();
    // Letting go of a held key or button is never held back: a pause must not leave one pressed.
    const lettingGo = RELEASES.has(call.tool.name);
    if (until === undefined || lettingGo || !isWrite(call.tool, call.args)) return Promise.resolve(undefined);
    return Promise.reject(
      new MacpilotError({
        ...pausedError(until, this.stoppedBy, call.tool.name),
        kind: 'paused_at_the_desk',
        refusal: true,
      }),
    );
  }
}

/** Tools that only let go of what a session holds down. */
const RELEASES = new Set(['key_up', 'mouse_up']);

/** Where the person stopped the agents: `macpilot stop` at a terminal, or the console's Stop. */
export type StopPlace = 'command' | 'console';

function pausedError(until: number, by: StopPlace, tool?: string) {
  const how = by === 'console' ? "pressed Stop in macpilot's console" : 'ran `macpilot stop`';
  const resume = by === 'console' ? 'press Resume there' : 'run `macpilot resume`';
  const time = new Date(until).toTimeString().slice(0, 8);
  // A stop with no pause (`--minutes 0`) cancels what runs and leaves the next call free to run.
  const paused = until > Date.now();
  return {
    what: tool
      ? `${tool} was not run: paused by the person at the desk`
      : 'Stopped by the person at the desk',
    why: paused
      ? `they ${how}: actions are paused until ${time} or until they ${resume}`
      : `they ${how}, which cancelled the calls running then; actions are not paused`,
    next: paused
      ? 'wait, and ask the person before acting again; reading the screen still works'
      : 'ask the person before acting again',
  };
}
