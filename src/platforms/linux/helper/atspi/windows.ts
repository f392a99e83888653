/**
 * Maps accessible top-level frames to X windows. GTK4 reports extents relative to its window, so its bounds
 * need the window's origin plus the client-side-decoration margin (window size minus frame size, split evenly:
 * GTK4 draws its shadow margin the same on every side).
 */
import { type Extents, getExtents, getProps } from './atspi.js';
import type { Bus } from '../../dbus/bus.js';
import type { Window, X11 } from '../x11/ewmh.js';
import type { Ref } from './handles.js';
import { handleOf } from './handles.js';

export interface Point {
  x: number;
  y: number;
}

const ZERO: Point = { x: 0, y: 0 };

/** The X window that shows a frame: the pid's only window, else the one titled like the frame. */
export function windowForFrame(windows: Window[], frameName: string): Window | undefined {
  if (windows.length <= 1) return windows[0];
  return windows.find((w) => w.title === frameName) ?? windows[0];
}

/** Per-request cache of GTK4 frame offsets (windows may move between requests). */
export class FrameOffsets {
  private readonly cache = new Map<string, Promise<Point>>();

  constructor(
    private readonly bus: Bus,
    private readonly x11: X11 | undefined,
  ) {}

  /** What to add to a GTK4 element's window-relative extents, given its top-level frame. */
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
    if (!this.x11) return ZERO;
    const [props, extents, windows] = await Promise.all([
      getProps(this.bus, frame),
      getExtents(this.bus, frame),
      this.x11.windowsOf(pid),
    ]);
    const window = windowForFrame(windows, props.name);
    const rect = window && (await this.x11.rect(window.id));
    if (!rect) return ZERO;
    return {
      x: rect.x + Math.max(0, Math.round((rect.width - extents.width) / 2)) - extents.x,
      y: rect.y + Math.max(0, Math.round((rect.height - extents.height) / 2)) - extents.y,
    };
  }
}

export const shift = (e: Extents, by: Point): Extents => ({ ...e, x: e.x + by.x, y: e.y + by.y });
