/**
 * What the X11, sway and GNOME input routes share: the pointer's path of a smooth move or a drag, the bound on a
 * scroll's wheel steps, the refusal of keys sent to one app in the background, which no display server here can
 * deliver, one operation at a time on a desk, and what a Wayland session answers about the person's input.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { HelperErrorCode, type Params, type Point, type Result } from '../../../helper-client/protocol.js';
import { HelperFailure } from '../errors.js';

/** Pointer steps of a smooth move or drag, at least this many so that drag thresholds are crossed. */
const MIN_STEPS = 10;
const STEP_MS = 10;

/**
 * Pointer positions from `from` to `to` over durationMs, at least MIN_STEPS of them when `always`; each one
 * handed to `moveTo` and flushed by `sync` before the next. A cancel stops between two steps.
 */
export async function glide(
  device: { moveTo(p: Point): void; sync(): Promise<void> },
  from: Point,
  to: Point,
  durationMs: number,
  always: boolean,
  signal: AbortSignal | undefined,
): Promise<void> {
  const steps = Math.max(always ? MIN_STEPS : 1, Math.round(durationMs / STEP_MS));
  for (let i = 1; i <= steps; i++) {
    signal?.throwIfAborted();
    const t = i / steps;
    device.moveTo({ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t });
    await device.sync();
    if (durationMs > 0) await sleep(durationMs / steps, undefined, { signal });
  }
}

/** input.key with a pid: on Linux keys go where the keyboard focus is, whatever the display server. */
export function refuseBackgroundKeys(server: 'X11' | 'Wayland'): never {
  throw new HelperFailure(
    HelperErrorCode.NotAvailable,
    `${server} delivers keys only where the keyboard focus is: it cannot send them to one app in the background`,
    'press the key in the foreground',
  );
}

/** The most wheel steps one scroll sends each way. */
const MAX_WHEEL_STEPS = 1000;

/** Refuses a scroll of more wheel steps each way than MAX_WHEEL_STEPS (pixels are not counted). */
export function checkWheelSteps(params: Params<'input.scroll'>): void {
  if (params.unit === 'pixel') return;
  if (Math.abs(params.dx) > MAX_WHEEL_STEPS || Math.abs(params.dy) > MAX_WHEEL_STEPS) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      `at most ${MAX_WHEEL_STEPS} wheel steps each way in one scroll`,
      'scroll less at a time',
    );
  }
}

const queues = new WeakMap<object, Promise<unknown>>();

/** Runs `work` after the operations queued before it on `desk`; one cancelled while it waited does not run. */
export function serial<T>(desk: object, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const previous = queues.get(desk) ?? Promise.resolve();
  const next = previous
    .catch(() => {})
    .then(() => {
      signal?.throwIfAborted();
      return work();
    });
  queues.set(desk, next);
  return next;
}

/** input.personFirst on Wayland: a client hears no input meant for other clients. */
export async function personFirstOnWayland(
  _session: unknown,
  params: Params<'input.personFirst'>,
): Promise<Result<'input.personFirst'>> {
  if (!params.on) return { watching: false };
  return {
    watching: false,
    why: 'a Wayland client cannot hear input meant for other clients, so macpilot cannot tell when the person uses the desk',
  };
}

/** input.hold takes a key by code or a modifier, one of the two. */
export function checkHoldTarget(params: Params<'input.hold'>): void {
  if ((params.code === undefined) === (params.modifier === undefined)) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      'input.hold takes a code or a modifier, one of the two',
      'send either code or modifier',
    );
  }
}
