import { expect, test } from 'vitest';
import { uncovered } from '../../src/bounds.js';

const area = { x: 0, y: 0, width: 100, height: 50 };
const total = (parts: { width: number; height: number }[]) =>
  parts.reduce((n, p) => n + p.width * p.height, 0);

test('the parts of an area that nothing covers', () => {
  expect(uncovered(area, [])).toEqual([area]);
  expect(uncovered(area, [{ x: 200, y: 0, width: 10, height: 10 }])).toEqual([area]);
  expect(uncovered(area, [{ x: -10, y: -10, width: 200, height: 100 }])).toEqual([]);
  // A cover in the middle leaves a frame of four parts around it.
  const framed = uncovered(area, [{ x: 40, y: 20, width: 20, height: 10 }]);
  expect(framed).toHaveLength(4);
  expect(total(framed)).toBe(100 * 50 - 20 * 10);
  // Two covers that overlap each other: what is left is counted once.
  const twice = uncovered(area, [
    { x: 0, y: 0, width: 60, height: 50 },
    { x: 50, y: 0, width: 30, height: 50 },
  ]);
  expect(twice).toEqual([{ x: 80, y: 0, width: 20, height: 50 }]);
});
