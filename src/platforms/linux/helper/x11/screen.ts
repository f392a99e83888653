/**
 * screen.displays and screen.capture: the displays from RandR (the whole X screen when RandR has none), and
 * captures as GetImage of the root window (through MIT-SHM where it works, see screen-shm.ts), so a window's
 * capture shows what is on screen over its frame, overlapping windows included.
 */
import type * as x11 from 'x11';
import {
  type Bounds,
  type DisplayInfo,
  HelperErrorCode,
  type Params,
  type Result,
} from '../../../../helper-client/protocol.js';
import type { X11 } from './ewmh.js';
import { HelperFailure } from '../../errors.js';
import { captured, encode, type PixelLayout, toRgba } from './screen-pixels.js';
import { randrMonitors } from './randr-monitors.js';
import { withScreenImage } from './screen-shm.js';
import type { Session } from '../session.js';
import { displayBounds } from '../desk-checks.js';

/**
 * The connection setup the x11 package keeps on the client as `display` (typed elsewhere with the keyboard's
 * fields only, and one property can have only one declared type).
 */
const setupOf = (x: X11): x11.Display => (x.client as unknown as { display: x11.Display }).display;

function screenOf(x: X11): x11.Screen {
  const screen = setupOf(x).screen.find((s) => s.root === x.root);
  if (!screen) throw new HelperFailure(HelperErrorCode.Failed, 'the X screen is unknown', 'restart macpilot');
  return screen;
}

const screenBounds = (screen: x11.Screen): Bounds => ({
  x: 0,
  y: 0,
  width: screen.pixel_width,
  height: screen.pixel_height,
});

/**
 * The displays RandR reports: its 1.5 monitors where the server has them (what windows are placed in), else the
 * active CRTCs, named by their first output; empty when RandR is absent or reports none.
 */
async function randrDisplays(x: X11): Promise<DisplayInfo[]> {
  const randr = await x.x<x11.RandR>((cb) => x.client.require('randr', cb)).catch(() => undefined);
  if (!randr) return [];
  const monitors = (await randrMonitors(x, randr).catch(() => undefined)) ?? [];
  if (monitors.length > 0) {
    const primary = Math.max(
      0,
      monitors.findIndex((m) => m.primary),
    );
    return monitors.map((m, i) => ({
      id: m.name,
      name: m.name,
      bounds: m.bounds,
      scale: 1,
      primary: i === primary,
    }));
  }
  const resources = await x.x<x11.ScreenResources>((cb) => randr.GetScreenResourcesCurrent(x.root, cb));
  const stamp = resources.config_timestamp;
  const [primary, crtcs] = await Promise.all([
    x.x<number>((cb) => randr.GetOutputPrimary(x.root, cb)).catch(() => 0),
    Promise.all(resources.crtcs.map((crtc) => x.x<x11.CrtcInfo>((cb) => randr.GetCrtcInfo(crtc, stamp, cb)))),
  ]);
  const active = crtcs.filter((c) => c.mode !== 0 && c.width > 0 && c.height > 0);
  const names = await Promise.all(
    active.map(async (c, i) => {
      const output = c.output[0];
      if (output === undefined) return `crtc-${i}`;
      const info = await x.x<x11.OutputInfo>((cb) => randr.GetOutputInfo(output, stamp, cb));
      return info.name || `output-${output}`;
    }),
  );
  const primaryIndex = Math.max(
    0,
    active.findIndex((c) => c.output.includes(primary)),
  );
  return active.map((c, i) => ({
    id: names[i] ?? `crtc-${i}`,
    name: names[i],
    bounds: { x: c.x, y: c.y, width: c.width, height: c.height },
    scale: 1,
    primary: i === primaryIndex,
  }));
}

export async function displays(session: Session): Promise<Result<'screen.displays'>> {
  const x = await session.x11();
  const found = await randrDisplays(x).catch(() => []);
  if (found.length > 0) return { displays: found };
  const whole = screenBounds(screenOf(x));
  return { displays: [{ id: 'screen', name: 'screen', bounds: whole, scale: 1, primary: true }] };
}

/** The top-level frame a client window sits in (the window itself when nothing reparented it). */
async function frameOf(x: X11, window: number): Promise<number> {
  let current = window;
  for (;;) {
    const tree = await x.x<x11.Tree>((cb) => x.client.QueryTree(current, cb));
    if (tree.parent === x.root || tree.parent === 0) return current;
    current = tree.parent;
  }
}

function parseWindowId(id: string): number {
  const value = /^(0x[0-9a-f]{1,8}|\d{1,10})$/i.test(id) ? Number(id) : Number.NaN;
  if (!Number.isInteger(value) || value <= 0 || value > 0xffffffff) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      `${JSON.stringify(id)} is not an X window id`,
      'use a window id from windows.list',
    );
  }
  return value;
}

async function windowBounds(x: X11, id: string): Promise<Bounds> {
  const window = parseWindowId(id);
  const frame = await frameOf(x, window).catch(() => undefined);
  const rect = frame === undefined ? undefined : await x.rect(frame);
  if (!rect) {
    throw new HelperFailure(
      HelperErrorCode.NotAvailable,
      `the window ${id} does not exist`,
      'it may have closed; list the windows again',
    );
  }
  return rect;
}

async function targetBounds(
  session: Session,
  x: X11,
  target: Params<'screen.capture'>['target'],
): Promise<Bounds> {
  if ('region' in target) return target.region;
  if ('window' in target) return windowBounds(x, target.window);
  return displayBounds((await displays(session)).displays, target.display);
}

/** The part of `wanted` on the screen, in whole pixels. */
function clip(wanted: Bounds, screen: Bounds): Bounds | undefined {
  const left = Math.max(Math.floor(wanted.x), screen.x);
  const top = Math.max(Math.floor(wanted.y), screen.y);
  const right = Math.min(Math.ceil(wanted.x + wanted.width), screen.x + screen.width);
  const bottom = Math.min(Math.ceil(wanted.y + wanted.height), screen.y + screen.height);
  return right > left && bottom > top
    ? { x: left, y: top, width: right - left, height: bottom - top }
    : undefined;
}

function layoutOf(x: X11, screen: x11.Screen, depth: number, visualId: number): PixelLayout | undefined {
  const visual = screen.depths[depth]?.[visualId] ?? screen.depths[screen.root_depth]?.[screen.root_visual];
  const format = setupOf(x).format[depth];
  if (!visual || !format) return undefined;
  return {
    bitsPerPixel: format.bits_per_pixel,
    littleEndian: setupOf(x).image_byte_order === 0,
    redMask: visual.red_mask,
    greenMask: visual.green_mask,
    blueMask: visual.blue_mask,
  };
}

export async function capture(
  session: Session,
  params: Params<'screen.capture'>,
): Promise<Result<'screen.capture'>> {
  const x = await session.x11();
  const screen = screenOf(x);
  const wanted = await targetBounds(session, x, params.target);
  const bounds = clip(wanted, screenBounds(screen));
  if (!bounds) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      `the area ${wanted.width}x${wanted.height} at ${wanted.x},${wanted.y} is off the screen`,
      `the screen spans 0,0 to ${screen.pixel_width},${screen.pixel_height}`,
    );
  }
  const encoded = await withScreenImage(x, bounds, async (image) => {
    const layout = layoutOf(x, screen, image.depth, image.visualId);
    const rgba = layout && toRgba(image.data, bounds.width, bounds.height, layout);
    if (!rgba) {
      throw new HelperFailure(
        HelperErrorCode.NotAvailable,
        `the screen's pixel format (depth ${image.depth}) is not supported`,
        'run the X server at depth 24 or 32',
      );
    }
    return encode(rgba, bounds.width, bounds.height, params);
  });
  return captured(encoded, bounds, params.format);
}
