/** Stopping exactly the processes we started: each leads its own process group, which we signal. */
import { setTimeout as sleep } from 'node:timers/promises';

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signal a process group (or the process alone when it leads none). */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Waits up to timeoutMs for a process to end; true when it has. */
export async function gone(pid: number, timeoutMs = 2000): Promise<boolean> {
  for (let waited = 0; alive(pid) && waited < timeoutMs; waited += 50) await sleep(50);
  return !alive(pid);
}

/** SIGTERM to the group, SIGKILL if it is still there after two seconds. */
export async function stopGroup(pid: number): Promise<void> {
  signalGroup(pid, 'SIGTERM');
  if (await gone(pid)) return;
  signalGroup(pid, 'SIGKILL');
  await gone(pid);
}
