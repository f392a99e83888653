/**
 * X pixels to an encoded image: the colours an agent sees are the screen's, whatever the visual's channel order,
 * scaled or not (the conversion of single pixels is in test/unit/engine/features/screen-annotate.test.ts).
 */
import { expect, test } from 'vitest';
import {
  encode,
  type PixelLayout,
  toRgba,
} from '../../../../../../src/platforms/linux/helper/x11/screen-pixels.js';
import { decode } from '../../../../../support/image.js';

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const GREY = [90, 140, 200];

/** A ZPixmap of 32-bit pixels as the X server sends it, built from RGB colours and the visual's masks. */
function zpixmap(colours: readonly number[][], layout: PixelLayout): Buffer {
  const data = Buffer.alloc(colours.length * 4);
  const put = (value: number, mask: number) => {
    let shift = 0;
    while (((mask >>> shift) & 1) === 0) shift++;
    return Math.round((value * (mask >>> shift)) / 255) << shift;
  };
  colours.forEach(([r = 0, g = 0, b = 0], i) => {
    const word = (put(r, layout.redMask) | put(g, layout.greenMask) | put(b, layout.blueMask)) >>> 0;
    if (layout.littleEndian) data.writeUInt32LE(word, i * 4);
    else data.writeUInt32BE(word, i * 4);
  });
  return data;
}

const DEPTH_24 = {
  bitsPerPixel: 32,
  littleEndian: true,
  redMask: 0xff0000,
  greenMask: 0xff00,
  blueMask: 0xff,
};

/** A 2x2 image of the four colours, 8 times bigger on each side, as the screen shows it. */
function squares(layout: PixelLayout): Buffer {
  const side = 16;
  const colours: number[][] = [];
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const quarter = (y < side / 2 ? 0 : 2) + (x < side / 2 ? 0 : 1);
      colours.push([RED, GREEN, BLUE, GREY][quarter] as number[]);
    }
  }
  return zpixmap(colours, layout);
}

async function pixelsOf(layout: PixelLayout, options: { format: 'png' | 'jpeg'; maxLongEdge: number }) {
  const rgba = toRgba(squares(layout), 16, 16, layout);
  expect(rgba).toBeDefined();
  const encoded = await encode(rgba as Buffer, 16, 16, { quality: 100, ...options });
  const image = await decode(encoded.data);
  const at = (x: number, y: number) => [
    ...image.rgb.subarray((y * image.width + x) * 3, (y * image.width + x) * 3 + 3),
  ];
  const [w, h] = [image.width, image.height];
  return { image, corners: [at(1, 1), at(w - 2, 1), at(1, h - 2), at(w - 2, h - 2)] };
}

test.each([
  ['depth 24, least significant byte first', DEPTH_24],
  ['depth 24 from a server of the other byte order', { ...DEPTH_24, littleEndian: false }],
  ['blue in the high byte', { ...DEPTH_24, redMask: 0xff, blueMask: 0xff0000 }],
  ['10 bits a channel (depth 30)', { ...DEPTH_24, redMask: 0x3ff00000, greenMask: 0xffc00, blueMask: 0x3ff }],
])('a PNG of %s has the colours on screen, exactly', async (_name, layout) => {
  const { image, corners } = await pixelsOf(layout, { format: 'png', maxLongEdge: 4096 });
  expect([image.format, image.width, image.height]).toEqual(['png', 16, 16]);
  expect(corners).toEqual([RED, GREEN, BLUE, GREY]);
});

/** Each corner within `tolerance` of its colour on screen, channel by channel. */
function expectNear(corners: number[][], tolerance: number): void {
  const wanted = [RED, GREEN, BLUE, GREY];
  corners.forEach((pixel, i) =>
    pixel.forEach((value, c) =>
      expect(Math.abs(value - (wanted[i]?.[c] ?? 0))).toBeLessThanOrEqual(tolerance),
    ),
  );
}

test('a scaled-down capture keeps the colours (the fourth byte, unused by X, is made opaque)', async () => {
  const { image, corners } = await pixelsOf(DEPTH_24, { format: 'png', maxLongEdge: 8 });
  expect([image.width, image.height]).toEqual([8, 8]);
  // Scaling blends in a little of the next square.
  expectNear(corners, 4);
});

test('a JPEG keeps the colours, within its loss', async () => {
  const { image, corners } = await pixelsOf(DEPTH_24, { format: 'jpeg', maxLongEdge: 4096 });
  expect(image.format).toBe('jpeg');
  expectNear(corners, 24);
});
