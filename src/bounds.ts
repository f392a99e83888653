/** Rectangle rules shared by the engine and the platforms (screen points or image pixels alike). */
import type { Bounds } from './helper/protocol.js';

/** The smallest box around all of `boxes` (at least one). */
export function unionBounds(boxes: readonly Bounds[]): Bounds {
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}
