/** Which of an app's windows shows a frame. */
import { expect, test } from 'vitest';
import { windowForFrame } from '../../../../../src/platforms/linux/helper/desk.js';

const windows = [
  { title: 'Application Class', rect: { x: 0, y: 0, width: 800, height: 600 } },
  { title: 'Dialogs and Message Boxes', rect: { x: 0, y: 600, width: 400, height: 200 } },
  { title: 'Dialogs and Message Boxes', rect: { x: 800, y: 600, width: 400, height: 200 } },
];
const rect = (w: (typeof windows)[number]) => w.rect;

test('of two windows titled alike, the one holding the point is the frame', () => {
  const right = windowForFrame(windows, 'Dialogs and Message Boxes', { point: { x: 900, y: 700 }, rect });
  expect(right).toBe(windows[2]);
  const left = windowForFrame(windows, 'Dialogs and Message Boxes', { point: { x: 100, y: 700 }, rect });
  expect(left).toBe(windows[1]);
});

test('without a point, or with a point in none of them, the first so titled; an unknown title, the first window', () => {
  expect(windowForFrame(windows, 'Dialogs and Message Boxes')).toBe(windows[1]);
  expect(windowForFrame(windows, 'Dialogs and Message Boxes', { point: { x: 5000, y: 5 }, rect })).toBe(
    windows[1],
  );
  expect(windowForFrame(windows, 'Application Class', { point: { x: 900, y: 700 }, rect })).toBe(windows[0]);
  expect(windowForFrame(windows, 'Gone')).toBe(windows[0]);
  expect(windowForFrame([windows[2]!], 'Application Class')).toBe(windows[2]);
});
