/** The helper's bounded waits (a window to activate, a toggle to flip, focus to arrive) end when their request is cancelled. */
import { expect, it } from 'vitest';
import { until } from '../../../../../src/platforms/linux/helper/until.js';

it('stops polling as soon as the signal aborts, and does not check again', async () => {
  const stop = new AbortController();
  let checks = 0;
  const waiting = until(
    async () => {
      checks++;
      return false;
    },
    60_000,
    stop.signal,
  );
  setTimeout(() => stop.abort(new Error('cancelled by the server')), 50);
  await expect(waiting).rejects.toThrow();
  const seen = checks;
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(checks).toBe(seen);
});

it('still answers false at its timeout, and true once the check holds', async () => {
  expect(await until(async () => false, 30)).toBe(false);
  let n = 0;
  expect(await until(async () => ++n === 3, 10_000)).toBe(true);
});
