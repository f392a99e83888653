/** Rectangle rules shared by the engine and the platforms (screen points or image pixels alike). */
import type { Bounds, Point } from './helper-client/protocol.js';

/** The smallest box around all of `boxes` (at least one). */
export function unionBounds(boxes: readonly Bounds[]): Bounds {
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Top to bottom; lines whose middles are within half a line of each other read left to right. */
export function readingOrder<T extends { bounds: Bounds }>(items: readonly T[]): T[] {
  const middle = (b: Bounds) => b.y + b.height / 2;
  return [...items].sort((a, b) => {
    const tolerance = Math.min(a.bounds.height, b.bounds.height) / 2;
    const dy = middle(a.bounds) - middle(b.bounds);
    return Math.abs(dy) <= tolerance ? a.bounds.x - b.bounds.x : dy;
  });
}

/** `x=40 y=30 640x480`. */
export const geometry = (b: Bounds): string => `x=${b.x} y=${b.y} ${b.width}x${b.height}`;

/** Whether two areas overlap. */
export const overlaps = (a: Bounds, b: Bounds): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** `1279.5,40`: a point as given, to a tenth (a point on a display's last half pixel is not printed past its edge). */
export const pointText = (p: Point): string => `${Math.round(p.x * 10) / 10},${Math.round(p.y * 10) / 10}`;
