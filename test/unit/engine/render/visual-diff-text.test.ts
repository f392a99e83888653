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
  expect(text).toContain('was another region or display scale captured?');
});
