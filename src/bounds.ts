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

/** The parts of `area` that none of `covers` covers, as rectangles (none when it is covered whole). */
export function uncovered(area: Bounds, covers: readonly Bounds[]): Bounds[] {
  let parts = [area];
  for (const cover of covers) {
    parts = parts.flatMap((part) => {
      if (!overlaps(part, cover)) return [part];
      const right = part.x + part.width;
      const bottom = part.y + part.height;
      const top = Math.max(part.y, cover.y);
      const below = Math.min(bottom, cover.y + cover.height);
      const pieces: Bounds[] = [
        { x: part.x, y: part.y, width: part.width, height: cover.y - part.y },
        { x: part.x, y: below, width: part.width, height: bottom - below },
        { x: part.x, y: top, width: cover.x - part.x, height: below - top },
        { x: cover.x + cover.width, y: top, width: right - cover.x - cover.width, height: below - top },
      ];
      return pieces.filter((piece) => piece.width > 0 && piece.height > 0);
    });
  }
  return parts;
}
