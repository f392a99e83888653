import { describe, expect, it } from 'vitest';
import { Desk, MAX_PAUSE_MS, StoppedAtTheDesk } from '../../../src/policy/desk.js';
import type { ToolCall } from '../../../src/policy/pipeline.js';

const call = (readOnlyHint: boolean, name = readOnlyHint ? 'snapshot_ui' : 'press_key') =>
  ({ tool: { name, annotations: { readOnlyHint } }, args: {} }) as unknown as ToolCall;

describe('Desk', () => {
  it('stop aborts every call in flight with the reason, and counts them; later calls get a fresh signal', async () => {
    const desk = new Desk();
    const seen: AbortSignal[] = [];
    const running = [1, 2].map(() =>
      desk.run(new AbortController().signal, (signal) => {
        seen.push(signal);
        return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      }),
    );
    const report = desk.stop(60_000);
    await Promise.all(running);
    expect(report.cancelled).toBe(2);
    expect(seen.every((s) => s.reason instanceof StoppedAtTheDesk)).toBe(true);
    await desk.run(new AbortController().signal, async (signal) => expect(signal.aborted).toBe(false));
  });

  it('while paused, actions are refused and reads admitted; resume ends the pause', async () => {
    const desk = new Desk();
    desk.stop(60_000);
    await expect(desk.admit(call(false))).rejects.toMatchObject({
      what: 'press_key was not run: paused by the person at the desk',
    });
    await expect(desk.admit(call(true))).resolves.toBeUndefined();
    // Letting go of what is held down is never held back.
    await expect(desk.admit(call(false, 'key_up'))).resolves.toBeUndefined();
    await expect(desk.admit(call(false, 'mouse_up'))).resolves.toBeUndefined();
    desk.resume();
    expect(desk.paused()).toBeUndefined();
    await expect(desk.admit(call(false))).resolves.toBeUndefined();
  });

  it('a stop without a pause tells the cancelled call so, not that actions are paused', async () => {
    const desk = new Desk();
    const running = desk.run(
      new AbortController().signal,
      (signal) =>
        new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason))),
    );
    desk.stop(0);
    const reason = (await running) as StoppedAtTheDesk;
    expect(reason.why).toBe(
      'they ran `macpilot stop`, which cancelled the calls running then; actions are not paused',
    );
    expect(reason.why).not.toMatch(/paused until/);
  });

  it('a pause ends by itself, at most a day after the stop; a client cancel still aborts', async () => {
    const desk = new Desk();
    const { pausedUntil } = desk.stop(10 * MAX_PAUSE_MS);
    expect(pausedUntil - Date.now()).toBeLessThanOrEqual(MAX_PAUSE_MS);
    desk.stop(0);
    expect(desk.paused()).toBeUndefined();
    const client = new AbortController();
    const aborted = desk.run(
      client.signal,
      (signal) => new Promise((r) => signal.addEventListener('abort', r)),
    );
    client.abort();
    await aborted;
  });
});
