/**
 * X ZPixmap pixels to PNG or JPEG with sharp, scaled down so the long edge fits. Only 32 bits per pixel (what
 * every depth-24 and depth-32 TrueColor visual uses today) is read; its channel masks come from the visual, so
 * any channel order works. Each pixel is rewritten in place as R, G, B and an opaque alpha, which sharp drops:
 * one read and one write per pixel and no second buffer (packing to 3 bytes in JS took twice as long).
 */
import type { Bounds, ImageFormat, Result } from '../../../../helper-client/protocol.js';
import { loadSharp, SCREEN_PNG } from '../../../../sharp.js';

export interface PixelLayout {
  bitsPerPixel: number;
  /** True when pixels are stored least significant byte first. */
  littleEndian: boolean;
  redMask: number;
  greenMask: number;
  blueMask: number;
}

export interface Encoded {
  data: Buffer;
  width: number;
  height: number;
}

interface Channel {
  shift: number;
  max: number;
  /** A channel value (0..max) as 8 bits. */
  to8: Uint8Array;
}

const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const swapBytes = (v: number) =>
  (((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24)) >>> 0;

/** How to take one channel out of a pixel value; undefined for a mask that is empty, split or too wide. */
function channel(mask: number): Channel | undefined {
  if (mask === 0) return undefined;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  if ((max & (max + 1)) !== 0 || max > 0xffff) return undefined;
  const to8 = new Uint8Array(max + 1);
  for (let v = 0; v <= max; v++) to8[v] = Math.round((v * 255) / max);
  return { shift, max, to8 };
}

/**
 * A width x height ZPixmap of 32-bit pixels (scanlines of 32-bit pixels need no padding) as 4 bytes a pixel:
 * R, G, B, 255. Rewrites `data` in place (a copy only when it is not 4-byte aligned) and returns it.
 */
export function toRgba(data: Buffer, width: number, height: number, layout: PixelLayout): Buffer | undefined {
  const count = width * height;
  if (layout.bitsPerPixel !== 32 || data.length < count * 4) return undefined;
  // Pixels are read in host byte order; a server of the other order has its masks byte-swapped instead.
  const native = layout.littleEndian === HOST_LITTLE_ENDIAN;
  const masks = [layout.redMask, layout.greenMask, layout.blueMask];
  const [r, g, b] = masks.map((m) => channel(native ? m : swapBytes(m)));
  if (!r || !g || !b) return undefined;
  const aligned = data.byteOffset % 4 === 0 ? data : Buffer.from(data);
  const pixels = new Uint32Array(aligned.buffer, aligned.byteOffset, count);
  // Written as a 32-bit word, R G B A in memory order is R in the low byte on a little-endian host. The alpha
  // is opaque: scaling weighs colours by it, and a zero would turn every pixel black.
  const [at0, at1, at2] = HOST_LITTLE_ENDIAN ? [0, 8, 16] : [24, 16, 8];
  const opaque = HOST_LITTLE_ENDIAN ? 0xff000000 : 0xff;
  if (r.max === 0xff && g.max === 0xff && b.max === 0xff) {
    const [rs, gs, bs] = [r.shift, g.shift, b.shift];
    for (let i = 0; i < count; i++) {
      const v = pixels[i] as number;
      pixels[i] =
        opaque | (((v >>> rs) & 0xff) << at0) | (((v >>> gs) & 0xff) << at1) | (((v >>> bs) & 0xff) << at2);
    }
  } else {
    for (let i = 0; i < count; i++) {
      const v = pixels[i] as number;
      pixels[i] =
        opaque |
        ((r.to8[(v >>> r.shift) & r.max] as number) << at0) |
        ((g.to8[(v >>> g.shift) & g.max] as number) << at1) |
        ((b.to8[(v >>> b.shift) & b.max] as number) << at2);
    }
  }
  return aligned.subarray(0, count * 4);
}

/** The size that fits maxLongEdge, keeping the aspect ratio (never scaled up). */
export function fitted(
  width: number,
  height: number,
  maxLongEdge: number,
): { width: number; height: number } {
  const factor = Math.min(1, maxLongEdge / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * factor)),
    height: Math.max(1, Math.round(height * factor)),
  };
}

/** Opaque RGBA pixels (from toRgba), or RGB ones, as PNG or JPEG of at most maxLongEdge pixels a side. */
export async function encode(
  pixels: Buffer,
  width: number,
  height: number,
  options: { format: ImageFormat; quality: number; maxLongEdge: number },
  channels: 3 | 4 = 4,
): Promise<Encoded> {
  const size = fitted(width, height, options.maxLongEdge);
  const sharp = await loadSharp();
  let image = sharp(pixels, { raw: { width, height, channels } }).removeAlpha();
  if (size.width !== width || size.height !== height)
    image = image.resize(size.width, size.height, { fit: 'fill' });
  image = options.format === 'png' ? image.png(SCREEN_PNG) : image.jpeg({ quality: options.quality });
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** screen.capture's answer: the encoded image of the screen area `bounds`, with image pixels per screen point. */
export const captured = (
  encoded: Encoded,
  bounds: Bounds,
  format: ImageFormat,
): Result<'screen.capture'> => ({
  data: encoded.data.toString('base64'),
  format,
  width: encoded.width,
  height: encoded.height,
  bounds,
  scale: encoded.width / bounds.width,
});
