/** visual_diff's verdict when the baseline and the capture differ in size. */
import { expect, test } from 'vitest';
import type { VisualDiffResult } from '../../../../src/engine/kernel/results.js';
import { visualDiffText } from '../../../../src/engine/render/testing.js';

/** A region captured and compared with a baseline of 200x100 pixels. */
const compared = (width: number, height: number, diff: Partial<VisualDiffResult>): VisualDiffResult => ({
  kind: 'visual-diff',
  what: `the region x=0 y=0 ${width}x${height}`,
  bounds: { x: 0, y: 0, width, height },
  scale: 1,
  captureSize: { width, height },
  compared: true,
  baseline: 'baseline://small',
  baselineSize: { width: 200, height: 100 },
  passed: false,
  diffPixels: 0,
  totalPixels: width * height,
  thresholdPercent: 0,
  sizeMismatch: false,
  ignored: 0,
  elapsedMs: 5,
  ...diff,
});

test('a region of another shape than its baseline: every pixel counts as changed, and the hint fits a region', () => {
  const text = visualDiffText(compared(50, 50, { sizeMismatch: true, diffPixels: 2500 }));
  expect(text).toMatch(
    /^Failed: baseline:\/\/small is 200x100 pixels and the capture of the region x=0 y=0 50x50 is 50x50/,
  );
  expect(text).toContain('no pixel could be compared and all 2500 count as changed');
  expect(text).toContain('(was another area captured than the baseline?)');
  expect(text).not.toContain('window');
});

test('a baseline of the same shape and another size is scaled, and the answer says so', () => {
  const text = visualDiffText(compared(300, 150, { diffPixels: 8114 }));
  expect(text).toContain(
    "The baseline (200x100 pixels, the same shape) was scaled to the capture's 300x150 to compare them.",
  );
});
