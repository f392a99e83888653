/**
 * screen.displays and screen.capture on sway: the outputs from its IPC, captures by grim (wlr-screencopy) of a
 * layout area, so a window's capture shows what is on screen over its rectangle.
 */
import {
  type Bounds,
  type DisplayInfo,
  HelperErrorCode,
  type Params,
  type Result,
} from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';
import { captured, encode } from '../x11/screen-pixels.js';
import type { Session } from '../session.js';
import { displayBounds } from '../desk-checks.js';
import type { SwayDesk } from './sway-desk.js';
import { runToolOk } from './tools.js';

async function outputs(desk: SwayDesk): Promise<DisplayInfo[]> {
  const active = (await desk.ipc.outputs()).filter((o) => o.active);
  // sway has no primary output: the one at the layout's origin stands for it, else the first.
  const primary = Math.max(
    0,
    active.findIndex((o) => o.rect.x === 0 && o.rect.y === 0),
  );
  return active.map((o, i) => ({
    id: o.name,
    name: [o.make, o.model].filter(Boolean).join(' ') || o.name,
    bounds: o.rect,
    scale: o.scale ?? 1,
    primary: i === primary,
  }));
}

export async function displays(session: Session): Promise<Result<'screen.displays'>> {
  return { displays: await outputs(await session.sway()) };
}

async function targetBounds(desk: SwayDesk, target: Params<'screen.capture'>['target']): Promise<Bounds> {
  if ('region' in target) return target.region;
  if ('window' in target) {
    const window = (await desk.windows()).find((w) => String(w.node.id) === target.window);
    if (!window) {
      throw new HelperFailure(
        HelperErrorCode.NotAvailable,
        `the window ${target.window} does not exist`,
        'it may have closed; list the windows again',
      );
    }
    return window.node.rect;
  }
  return displayBounds(await outputs(desk), target.display);
}

/** A binary PPM (P6, 8 bits a channel), as grim writes it. */
function parsePpm(data: Buffer): { width: number; height: number; rgb: Buffer } {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.toString('latin1', 0, 64));
  if (!header || header[3] !== '255') {
    throw new HelperFailure(
      HelperErrorCode.Failed,
      'grim wrote an image macpilot cannot read',
      'update grim',
    );
  }
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, rgb: data.subarray(header[0].length, header[0].length + width * height * 3) };
}

export async function capture(
  session: Session,
  params: Params<'screen.capture'>,
  signal?: AbortSignal,
): Promise<Result<'screen.capture'>> {
  const desk = await session.sway();
  const wanted = await targetBounds(desk, params.target);
  const area = {
    x: Math.floor(wanted.x),
    y: Math.floor(wanted.y),
    width: Math.ceil(wanted.width),
    height: Math.ceil(wanted.height),
  };
  const geometry = `${area.x},${area.y} ${area.width}x${area.height}`;
  const ppm = await runToolOk('grim', ['-g', geometry, '-t', 'ppm', '-'], session.env, { signal });
  const { width, height, rgb } = parsePpm(ppm);
  const encoded = await encode(rgb, width, height, params, 3);
  return captured(encoded, area, params.format);
}
