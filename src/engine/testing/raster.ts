/** Images as RGBA pixels, for comparing them and measuring colours: decoded from PNG with sharp. */
import { MacpilotError } from '../../errors.js';
import { loadSharp, SCREEN_PNG } from '../../sharp.js';

/** RGBA pixels, 4 bytes each, row by row. */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A PNG's pixels; `what` names it in the error when it is not one. */
export async function decodePng(png: Buffer, what: string): Promise<Raster> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: info.width, height: info.height };
  } catch (error) {
    throw new MacpilotError(
      {
        what: `Cannot decode ${what}`,
        why: String(error),
        next: 'give a valid PNG image',
        kind: 'image_undecodable',
      },
      { cause: error },
    );
  }
}

/** A PNG's pixels scaled to exactly width x height. */
export async function resizedPng(png: Buffer, width: number, height: number): Promise<Raster> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(png)
    .resize({ width, height, fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** Pixels as PNG, scaled down (never up) so that the long edge is at most maxLongEdge, as screenshots are. */
export async function encodePng(
  raster: Raster,
  maxLongEdge: number,
): Promise<{ png: Buffer; width: number; height: number }> {
  const sharp = await loadSharp();
  const { data, width, height } = raster;
  const { data: png, info } = await sharp(Buffer.from(data.buffer, data.byteOffset, data.length), {
    raw: { width, height, channels: 4 },
  })
    .resize({ width: maxLongEdge, height: maxLongEdge, fit: 'inside', withoutEnlargement: true })
    .png(SCREEN_PNG)
    .toBuffer({ resolveWithObject: true });
  return { png, width: info.width, height: info.height };
}
