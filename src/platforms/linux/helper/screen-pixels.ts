/**
 * X ZPixmap pixels to packed RGB, then to PNG or JPEG with sharp, scaled down so the long edge fits. Only 32 bits
 * per pixel (what every depth-24 and depth-32 TrueColor visual uses today) is read; its channel masks come from
 * the visual, so any channel order works.
 */
import type { ImageFormat } from '../../../helper/protocol.js';
import { loadSharp, SCREEN_PNG } from '../../../sharp.js';

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

/** 8-bit channels on a little-endian host: four pixels at a time become three 32-bit words of RGB bytes. */
function packEightBit(pixels: Uint32Array, r: Channel, g: Channel, b: Channel): Buffer {
  const count = pixels.length;
  const words = new Uint32Array(Math.ceil((count * 3) / 4));
  const [rs, gs, bs] = [r.shift, g.shift, b.shift];
  const rgb = (v: number) => ((v >>> rs) & 0xff) | (((v >>> gs) & 0xff) << 8) | (((v >>> bs) & 0xff) << 16);
  let i = 0;
  for (let o = 0; i + 4 <= count; i += 4) {
    const p0 = rgb(pixels[i] as number);
    const p1 = rgb(pixels[i + 1] as number);
    const p2 = rgb(pixels[i + 2] as number);
    const p3 = rgb(pixels[i + 3] as number);
    words[o++] = p0 | (p1 << 24);
    words[o++] = (p1 >>> 8) | (p2 << 16);
    words[o++] = (p2 >>> 16) | (p3 << 8);
  }
  const out = Buffer.from(words.buffer, 0, count * 3);
  for (; i < count; i++) {
    const v = rgb(pixels[i] as number);
    out[i * 3] = v & 0xff;
    out[i * 3 + 1] = (v >>> 8) & 0xff;
    out[i * 3 + 2] = v >>> 16;
  }
  return out;
}

/** Packed RGB of a width x height ZPixmap of 32-bit pixels (scanlines of 32-bit pixels need no padding). */
export function toRgb(data: Buffer, width: number, height: number, layout: PixelLayout): Buffer | undefined {
  const count = width * height;
  if (layout.bitsPerPixel !== 32 || data.length < count * 4) return undefined;
  // Pixels are read in host byte order; a server of the other order has its masks byte-swapped instead.
  const native = layout.littleEndian === HOST_LITTLE_ENDIAN;
  const masks = [layout.redMask, layout.greenMask, layout.blueMask];
  const [r, g, b] = masks.map((m) => channel(native ? m : swapBytes(m)));
  if (!r || !g || !b) return undefined;
  const aligned = data.byteOffset % 4 === 0 ? data : Buffer.from(data);
  const pixels = new Uint32Array(aligned.buffer, aligned.byteOffset, count);
  if (HOST_LITTLE_ENDIAN && r.max === 0xff && g.max === 0xff && b.max === 0xff)
    return packEightBit(pixels, r, g, b);
  const rgb = Buffer.allocUnsafe(count * 3);
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = pixels[i] as number;
    rgb[o] = r.to8[(v >>> r.shift) & r.max] as number;
    rgb[o + 1] = g.to8[(v >>> g.shift) & g.max] as number;
    rgb[o + 2] = b.to8[(v >>> b.shift) & b.max] as number;
  }
  return rgb;
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

export async function encode(
  rgb: Buffer,
  width: number,
  height: number,
  options: { format: ImageFormat; quality: number; maxLongEdge: number },
): Promise<Encoded> {
  const size = fitted(width, height, options.maxLongEdge);
  const sharp = await loadSharp();
  let image = sharp(rgb, { raw: { width, height, channels: 3 } });
  if (size.width !== width || size.height !== height)
    image = image.resize(size.width, size.height, { fit: 'fill' });
  image = options.format === 'png' ? image.png(SCREEN_PNG) : image.jpeg({ quality: options.quality });
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
