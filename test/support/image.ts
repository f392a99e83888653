/** Reading screenshots the way a test checks them: decoded pixels, colour counts, a window's frame from X. */
import { execFileSync } from 'node:child_process';
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

/** The top-level X window of a pid and its frame rectangle, read with xprop and xwininfo. */
export function windowOfPid(
  env: Record<string, string>,
  pid: number,
): { id: string; frame: { x: number; y: number; width: number; height: number } } | undefined {
  const run = (command: string, args: string[]) => execFileSync(command, args, { env, encoding: 'utf8' });
  const list = run('xprop', ['-root', '_NET_CLIENT_LIST']).split('#')[1] ?? '';
  for (const id of list
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean)) {
    if (!run('xprop', ['-id', id, '_NET_WM_PID']).includes(`= ${pid}`)) continue;
    const info = run('xwininfo', ['-frame', '-id', id]);
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(-?\\d+)`).exec(info)?.[1]);
    return {
      id: String(Number(id)),
      frame: {
        x: field('Absolute upper-left X'),
        y: field('Absolute upper-left Y'),
        width: field('Width'),
        height: field('Height'),
      },
    };
  }
  return undefined;
}
