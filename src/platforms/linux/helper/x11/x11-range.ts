/**
 * What X11 can carry: coordinates are 16-bit signed integers, and a window's far edge must be one too. A value past
 * them breaks a request mid-write (the X server then closes the connection) or wraps silently, so values are
 * checked here before anything is written, and refused with the reason.
 */
import { HelperErrorCode, type Point } from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';

export const X11_MIN = -32_768;
export const X11_MAX = 32_767;

const carried = (v: number) => v >= X11_MIN && v <= X11_MAX;

/** The pixel `at` lies in (its whole coordinates, rounded down), or refused when X11 cannot carry it. */
export function onX11(what: string, at: Point): Point {
  const point = { x: Math.floor(at.x), y: Math.floor(at.y) };
  if (carried(point.x) && carried(point.y)) return point;
  throw new HelperFailure(
    HelperErrorCode.InvalidParams,
    `the ${what} ${point.x},${point.y} is beyond what X11 can address (${X11_MIN} to ${X11_MAX} on each axis)`,
    'give a point on a screen: list_displays shows where the screens are',
  );
}

/** A window size X11 can carry (its far edge, from the screen's origin, at most X11_MAX), or refused. */
export function sizeOnX11(width: number, height: number): void {
  if (width <= X11_MAX && height <= X11_MAX) return;
  throw new HelperFailure(
    HelperErrorCode.InvalidParams,
    `the size ${width}x${height} is beyond what X11 can address (at most ${X11_MAX} pixels on each axis)`,
    'give a size that fits the screens: list_displays shows how large they are',
  );
}
