/**
 * What the X11 and the sway input routes share: the pointer's path of a smooth move or a drag, and the refusal
 * of keys sent to one app in the background, which neither display server can deliver.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { HelperErrorCode, type Point } from '../../../helper-client/protocol.js';
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
