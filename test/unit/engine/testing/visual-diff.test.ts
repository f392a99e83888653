/** visual_diff's comparison: pixelmatch over two rasters, with ignored regions and screen points mapped to pixels. */
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../../../src/engine/testing/raster.js';
import {
  Baselines,
  compareRasters,
  toPixels,
  VISUAL_DIFF_DEFAULTS,
  VisualDiffs,
} from '../../../../src/engine/testing/visual-diff.js';
import type { Kernel } from '../../../../src/engine/kernel/kernel.js';
import type { Screen } from '../../../../src/engine/features/screen.js';

/** A white raster with black blocks. */
function raster(
  width: number,
  height: number,
  blocks: { x: number; y: number; width: number; height: number }[] = [],
): Raster {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (const b of blocks) {
    for (let y = b.y; y < b.y + b.height; y++) {
      for (let x = b.x; x < b.x + b.width; x++) data.set([0, 0, 0, 255], (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

const red = (r: Raster, x: number, y: number) => [
  ...r.data.subarray((y * r.width + x) * 4, (y * r.width + x) * 4 + 3),
];

describe('compareRasters', () => {
  it('finds no difference between equal images', () => {
    expect(compareRasters(raster(50, 40), raster(50, 40), []).diffPixels).toBe(0);
  });

  it('counts the changed pixels and paints them red over the faded capture', () => {
    const { diffPixels, diff } = compareRasters(
      raster(50, 40, [{ x: 10, y: 10, width: 5, height: 4 }]),
      raster(50, 40),
      [],
    );
    expect(diffPixels).toBe(20);
    expect(red(diff, 12, 12)).toEqual([255, 0, 0]);
    expect(red(diff, 40, 30)).not.toEqual([255, 0, 0]);
  });

  it('leaves ignored regions out and outlines them', () => {
    const capture = raster(50, 40, [{ x: 10, y: 10, width: 5, height: 4 }]);
    const { diffPixels, diff } = compareRasters(capture, raster(50, 40), [
      { x: 8, y: 8, width: 10, height: 10 },
    ]);
    expect(diffPixels).toBe(0);
    expect(red(diff, 8, 8)).toEqual([40, 110, 255]);
    expect(capture.data[(12 * 50 + 12) * 4]).toBe(0); // the capture itself is untouched
  });
});

describe('toPixels', () => {
  it('maps screen points to the pixels of a capture at scale 2, clipped to the image', () => {
    const area = { x: 100, y: 50, width: 200, height: 100 };
    const size = raster(400, 200);
    expect(toPixels([{ x: 110, y: 60, width: 10, height: 5 }], area, 2, size)).toEqual([
      { x: 20, y: 20, width: 20, height: 10 },
    ]);
    expect(toPixels([{ x: 250, y: 140, width: 100, height: 100 }], area, 2, size)).toEqual([
      { x: 300, y: 180, width: 100, height: 20 },
    ]);
    expect(toPixels([{ x: 0, y: 0, width: 50, height: 50 }], area, 2, size)).toEqual([]);
  });
});

describe('Baselines', () => {
  it('keeps the newest baselines by name, forgetting the oldest past the limit', () => {
    const baselines = new Baselines();
    for (let i = 0; i <= VISUAL_DIFF_DEFAULTS.keptBaselines; i++) baselines.save(`b${i}`, Buffer.from([i]));
    expect(baselines.get('b0')).toBeUndefined();
    expect(baselines.get('b1')).toEqual(Buffer.from([1]));
    baselines.save('b1', Buffer.from([99]));
    expect(baselines.names().at(-1)).toBe('b1');
  });
});

describe('a baseline file', () => {
  // Refused before anything is captured: the kernel only runs the work, the screen is never asked.
  const diffs = new VisualDiffs(
    { guard: (_doing: string, work: () => Promise<unknown>) => work() } as unknown as Kernel,
    {} as Screen,
  );
  it('that is a device, not a regular file, is refused instead of read without end', async () => {
    await expect(
      diffs.compare({ area: {}, baseline: '/dev/zero', baselines: new Baselines() }),
    ).rejects.toThrow(/not a regular file/);
  });
  it('given as a file URL that names no local file is refused as such, not as a bug', async () => {
    for (const url of ['file://%zz', 'file://elsewhere/tmp/b.png']) {
      await expect(diffs.compare({ area: {}, baseline: url, baselines: new Baselines() })).rejects.toThrow(
        /not a usable file URL/,
      );
    }
  });
});
