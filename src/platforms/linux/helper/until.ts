import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 20;

/**
 * Polls `check` until it holds (true) or `timeoutMs` passes (false); throws as soon as the request is cancelled
 * (the helper answers it as cancelled).
 */
export async function until(
  check: () => Promise<boolean>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS, undefined, { signal });
  }
}
