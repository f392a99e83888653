/** InFlight: at most N calls to one app at once, the rest in turn; other apps are not held up. */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { InFlight } from '../../../../../src/platforms/linux/dbus/in-flight.js';

test('calls to one app run at most three at a time, all of them in the end; another app runs meanwhile', async () => {
  const limit = new InFlight(3);
  let running = 0;
  let most = 0;
  const call = (result: number) =>
    limit.run(':1.5', async () => {
      running++;
      most = Math.max(most, running);
      await sleep(5);
      running--;
      return result;
    });
  const many = Promise.all(Array.from({ length: 10 }, (_, i) => call(i)));
  const other = await limit.run(':1.9', async () => 'other app');
  expect(other).toBe('other app');
  expect(running).toBe(3);
  expect(await many).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(most).toBe(3);
});

test('a call that fails gives its turn to the next', async () => {
  const limit = new InFlight(1);
  const failed = limit.run(':1.5', async () => {
    throw new Error('no answer');
  });
  const next = limit.run(':1.5', async () => 'answered');
  await expect(failed).rejects.toThrow('no answer');
  expect(await next).toBe('answered');
});
