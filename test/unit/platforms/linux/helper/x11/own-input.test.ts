/** Which recorded events the helper sent itself. */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import {
  BUTTON_PRESS,
  KEY_PRESS,
  KEY_RELEASE,
  OwnInput,
} from '../../../../../../src/platforms/linux/helper/x11/own-input.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('each sent event claims one recorded event of its kind and detail; another is the person’s', () => {
  const own = new OwnInput();
  const stop = own.listen();
  own.note(KEY_PRESS, 38);
  own.note(KEY_RELEASE, 38);
  own.note(BUTTON_PRESS, 1);
  expect(own.claims(KEY_PRESS, 39)).toBe(false); // the person's key, heard between the helper's
  expect(own.claims(KEY_PRESS, 38)).toBe(true);
  expect(own.claims(KEY_PRESS, 38)).toBe(false); // the person pressed it too
  expect(own.claims(KEY_RELEASE, 38)).toBe(true);
  expect(own.claims(BUTTON_PRESS, 1)).toBe(true);
  expect(own.claims(BUTTON_PRESS, 1)).toBe(false);
  stop();
});

test('what was sent while no recording listened, or long ago, claims nothing', () => {
  const own = new OwnInput();
  own.note(KEY_PRESS, 38);
  own.note(KEY_RELEASE, 38);
  const stop = own.listen();
  expect(own.claims(KEY_PRESS, 38)).toBe(false);
  own.note(BUTTON_PRESS, 3);
  vi.advanceTimersByTime(6000);
  expect(own.claims(BUTTON_PRESS, 3)).toBe(false);
  stop();
});

test('a key the helper holds claims its repeats, and for a second after a long hold ends; a short one does not', () => {
  const own = new OwnInput();
  const stop = own.listen();
  own.note(KEY_PRESS, 38);
  expect(own.claims(KEY_PRESS, 38)).toBe(true);
  vi.advanceTimersByTime(900);
  expect(own.claims(KEY_PRESS, 38)).toBe(true); // a repeat
  own.note(KEY_RELEASE, 38);
  expect(own.claims(KEY_RELEASE, 38)).toBe(true);
  expect(own.claims(KEY_PRESS, 38)).toBe(true); // a repeat heard after the release was sent
  vi.advanceTimersByTime(1100);
  expect(own.claims(KEY_PRESS, 38)).toBe(false);

  own.note(KEY_PRESS, 40);
  own.note(KEY_RELEASE, 40);
  expect(own.claims(KEY_PRESS, 40)).toBe(true);
  expect(own.claims(KEY_RELEASE, 40)).toBe(true);
  expect(own.claims(KEY_PRESS, 40)).toBe(false);
  stop();
});
