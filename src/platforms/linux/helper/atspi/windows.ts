/**
 * Maps accessible top-level frames to the display server's windows. An app that reports extents relative to its
 * window (GTK4, and every app under Wayland) needs the window's origin plus the client-side-decoration margin
 * (window size minus frame size, split evenly: GTK draws its shadow margin the same on every side).
 */
import { type Extents, getExtents, getProps } from './atspi.js';
import type { Bus } from '../../dbus/bus.js';
import { type Placed, windowForFrame } from '../desk.js';
import type { Ref } from './handles.js';
import { handleOf } from './handles.js';

export interface Point {
  x: number;
  y: number;
}

const ZERO: Point = { x: 0, y: 0 };

/** Per-request cache of frame offsets (windows may move between requests). */
export class FrameOffsets {
  private readonly cache = new Map<string, Promise<Point>>();

  constructor(
    private readonly bus: Bus,
    /** The windows of a pid and where they are. */
    private readonly places: (pid: number) => Promise<Placed[]>,
  ) {}

  /** What to add to an element's window-relative extents, given its top-level frame. */
  offset(frame: Ref, pid: number): Promise<Point> {
    const key = handleOf(frame);
    let found = this.cache.get(key);
    if (!found) {
      found = this.compute(frame, pid).catch(() => ZERO);
      this.cache.set(key, found);
    }
    return found;
  }

  private async compute(frame: Ref, pid: number): Promise<Point> {
    const [props, extents, windows] = await Promise.all([
      getProps(this.bus, frame),
      getExtents(this.bus, frame),
      this.places(pid),
    ]);
    const rect = windowForFrame(windows, props.name)?.rect;
    if (!rect) return ZERO;
    return {
      x: rect.x + Math.max(0, Math.round((rect.width - extents.width) / 2)) - extents.x,
      y: rect.y + Math.max(0, Math.round((rect.height - extents.height) / 2)) - extents.y,
    };
  }
}

export const shift = (e: Extents, by: Point): Extents => ({ ...e, x: e.x + by.x, y: e.y + by.y });
