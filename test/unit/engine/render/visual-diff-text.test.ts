/** visual_diff's verdict when the baseline and the capture differ in size. */
import { expect, test } from 'vitest';
import type { VisualDiffResult } from '../../../../src/engine/kernel/results.js';
import { visualDiffText } from '../../../../src/engine/render/testing.js';

test('a region of another size than its baseline: the hint fits a region as well as a window', () => {
  const result: VisualDiffResult = {
    kind: 'visual-diff',
    what: 'the region 0,0 50x50',
    bounds: { x: 0, y: 0, width: 50, height: 50 },
    scale: 1,
    captureSize: { width: 50, height: 50 },
    compared: true,
    baseline: 'baseline://mp',
    baselineSize: { width: 200, height: 100 },
    passed: false,
    diffPixels: 0,
    totalPixels: 0,
    thresholdPercent: 0,
    sizeMismatch: true,
    ignored: 0,
    elapsedMs: 5,
  };
  const text = visualDiffText(result);
  expect(text).toMatch(
    /^Failed: baseline:\/\/mp is 200x100 pixels and the capture of the region 0,0 50x50 is 50x50/,
  );
  expect(text).toContain('no pixel could be compared and all 0 count as changed');
  expect(text).toContain('(was another area captured than the baseline?)');
  expect(text).not.toContain('window');
});

test('a baseline of the same shape and another size is scaled, and the answer says so', () => {
  const text = visualDiffText({
    kind: 'visual-diff',
    what: 'the region x=0 y=0 300x150',
    bounds: { x: 0, y: 0, width: 300, height: 150 },
    scale: 1,
    captureSize: { width: 300, height: 150 },
    compared: true,
    baseline: 'baseline://small',
    baselineSize: { width: 200, height: 100 },
    passed: false,
    diffPixels: 8114,
    totalPixels: 45000,
    thresholdPercent: 0,
    sizeMismatch: false,
    ignored: 0,
    elapsedMs: 5,
  });
  expect(text).toContain(
    "The baseline (200x100 pixels, the same shape) was scaled to the capture's 300x150 to compare them.",
  );
});
