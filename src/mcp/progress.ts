/**
 * Progress for long calls: when the client sent a progress token, a call still running after each interval sends
 * notifications/progress with the seconds elapsed. A client that resets its request timeout on progress (the SDK
 * client's resetTimeoutOnProgress) then waits for a long wait_for or script instead of giving up at its default.
 */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';

export const PROGRESS_INTERVAL_MS = 3000;

export interface ProgressTarget {
  _meta?: { progressToken?: string | number };
  sendNotification(notification: ServerNotification): Promise<void>;
}

/** Starts the heartbeat for one call of `tool`; the returned function stops it. */
export function progressHeartbeat(
  tool: string,
  extra: ProgressTarget,
  intervalMs = PROGRESS_INTERVAL_MS,
): () => void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => {};
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: seconds, message: `${tool}: still working after ${seconds} s` },
      })
      .catch(() => {}); // a client gone mid-call: the call's own answer reports that
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
