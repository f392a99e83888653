/** Reading screenshots the way a test checks them: decoded pixels and colour counts. */
import sharp from 'sharp';

export interface Pixels {
  format: string;
  width: number;
  height: number;
  /** Packed RGB. */
  rgb: Buffer;
}

export async function decode(image: Buffer): Promise<Pixels> {
  const { format } = await sharp(image).metadata();
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { format: format ?? '', width: info.width, height: info.height, rgb: data };
}

/** How many distinct colours a rectangle of the image has. */
export function colours(
  pixels: Pixels,
  area = { x: 0, y: 0, width: pixels.width, height: pixels.height },
): number {
  const seen = new Set<number>();
  for (let y = area.y; y < area.y + area.height; y++) {
    for (let x = area.x; x < area.x + area.width; x++) {
      const i = (y * pixels.width + x) * 3;
      seen.add(((pixels.rgb[i] ?? 0) << 16) | ((pixels.rgb[i + 1] ?? 0) << 8) | (pixels.rgb[i + 2] ?? 0));
    }
  }
  return seen.size;
}
