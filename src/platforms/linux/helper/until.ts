import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 20;

/** Polls `check` until it holds (true) or `timeoutMs` passes (false). */
export async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}
