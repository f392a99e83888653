/** Apps that stopped answering: fail fast after one timeout, probe after a back-off, recover on any answer. */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { HelperErrorCode } from '../../../../../src/helper-client/protocol.js';
import {
  FIRST_BACKOFF_MS,
  MAX_BACKOFF_MS,
  Unanswering,
} from '../../../../../src/platforms/linux/dbus/unanswering.js';
import { DBusCallError, HelperFailure } from '../../../../../src/platforms/linux/errors.js';

const timedOut = () => new HelperFailure(HelperErrorCode.Timeout, 'no answer', '');
const isTimeout = (error: unknown) => error instanceof HelperFailure && error.message === 'no answer';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The error check() throws, or undefined when the call may go. */
function refusal(apps: Unanswering, destination: string): HelperFailure | undefined {
  try {
    apps.check(destination);
    return undefined;
  } catch (error) {
    return error as HelperFailure;
  }
}

test('after a timeout, calls to that app fail at once saying it is waited for; other apps are untouched', async () => {
  const apps = new Unanswering(
    () => new Promise(() => {}),
    isTimeout,
    5000,
    (name) => (name === ':1.7' ? 'gtk3-demo (pid 42)' : undefined),
  );
  apps.timedOut(':1.7');
  apps.timedOut(':1.9');
  vi.advanceTimersByTime(500);
  const refused = refusal(apps, ':1.7');
  expect(refused?.code).toBe(HelperErrorCode.Timeout);
  expect(refused?.message).toContain(
    'gtk3-demo (pid 42) is busy: it left a call unanswered for 5 s (just now)',
  );
  await vi.advanceTimersByTimeAsync(2000);
  expect(refusal(apps, ':1.7')?.message).toContain('unanswered for 5 s (2 s ago)');
  // An app never named (it was silent from its first call) is told by its place on the bus.
  expect(refusal(apps, ':1.9')?.message).toContain('the app at :1.9 on the accessibility bus is busy');
  expect(refused?.message).toContain('the helper is waiting for it to answer again');
  expect(refusal(apps, ':1.8')).toBeUndefined();
  apps.close();
});

test('the probe runs after the back-off; while it is out calls still fail fast; its answer ends the fail-fast', async () => {
  let answer: (() => void) | undefined;
  const probe = vi.fn((_: string) => new Promise<void>((resolve) => (answer = resolve)));
  const apps = new Unanswering(probe, isTimeout, 5000);
  apps.timedOut(':1.7');
  expect(probe).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(FIRST_BACKOFF_MS);
  expect(probe).toHaveBeenCalledWith(':1.7');
  expect(refusal(apps, ':1.7')?.message).toContain('waiting for it to answer again');
  // One question at a time: the refused call asked nothing more.
  expect(probe).toHaveBeenCalledTimes(1);
  answer?.();
  await vi.advanceTimersByTimeAsync(0);
  expect(refusal(apps, ':1.7')).toBeUndefined();
});

test('a probe that times out doubles the back-off up to its limit; an error reply counts as an answer', async () => {
  const outcomes: Array<() => Promise<void>> = [];
  const probe = vi.fn(() => (outcomes.shift() ?? (() => Promise.reject(timedOut())))());
  const apps = new Unanswering(probe, isTimeout, 5000);
  apps.timedOut(':1.7');
  let waited = 0;
  for (
    let backoff = FIRST_BACKOFF_MS;
    backoff <= MAX_BACKOFF_MS * 2;
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
  ) {
    const calls = probe.mock.calls.length;
    await vi.advanceTimersByTimeAsync(backoff - 1);
    expect(probe.mock.calls.length, `after ${waited + backoff - 1} ms`).toBe(calls);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe.mock.calls.length).toBe(calls + 1);
    waited += backoff;
    if (backoff === MAX_BACKOFF_MS) break;
  }
  expect(refusal(apps, ':1.7')).toBeDefined();
  outcomes.push(() => Promise.reject(new DBusCallError('org.freedesktop.DBus.Error.ServiceUnknown', 'gone')));
  await vi.advanceTimersByTimeAsync(MAX_BACKOFF_MS);
  expect(refusal(apps, ':1.7')).toBeUndefined();
});

test('a call refused while no question is out asks the app at once: once it answers, the next call goes', async () => {
  const answers: Array<() => void> = [];
  const probe = vi.fn((_: string) => new Promise<void>((resolve) => answers.push(resolve)));
  const apps = new Unanswering(probe, isTimeout, 5000);
  apps.timedOut(':1.7');
  await vi.advanceTimersByTimeAsync(100);
  expect(refusal(apps, ':1.7')).toBeDefined();
  expect(probe).toHaveBeenCalledTimes(1);
  expect(refusal(apps, ':1.7')).toBeDefined();
  expect(probe).toHaveBeenCalledTimes(1);
  // The app is resumed: it answers the question out, long before the back-off would have asked.
  answers[0]?.();
  await vi.advanceTimersByTimeAsync(0);
  expect(refusal(apps, ':1.7')).toBeUndefined();
  // No question left over for the back-off to ask.
  await vi.advanceTimersByTimeAsync(FIRST_BACKOFF_MS * 2);
  expect(probe).toHaveBeenCalledTimes(1);
});
