/** The progress heartbeat of long calls, on fake timers. */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { progressHeartbeat } from '../../../src/mcp/progress.js';

function target(progressToken?: string | number) {
  const sent: ServerNotification[] = [];
  return {
    sent,
    extra: {
      ...(progressToken === undefined ? {} : { _meta: { progressToken } }),
      sendNotification: (notification: ServerNotification) => {
        sent.push(notification);
        return Promise.resolve();
      },
    },
  };
}

describe('progressHeartbeat', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('with a token: one notification per interval, seconds rising, until stopped', () => {
    const { sent, extra } = target('t1');
    const stop = progressHeartbeat('wait_for', extra, 3000);
    vi.advanceTimersByTime(2999);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(6001);
    stop();
    vi.advanceTimersByTime(30_000);
    expect(sent).toEqual(
      [3, 6, 9].map((seconds) => ({
        method: 'notifications/progress',
        params: {
          progressToken: 't1',
          progress: seconds,
          message: `wait_for: still working after ${seconds} s`,
        },
      })),
    );
  });

  test('without a token: nothing is sent', () => {
    const { sent, extra } = target();
    const stop = progressHeartbeat('run_applescript', extra, 1000);
    vi.advanceTimersByTime(10_000);
    stop();
    expect(sent).toEqual([]);
  });
});
