/**
 * Processes a test starts (or is handed, like an app launched through launch_app) on the shared desktop. Each
 * leads its own process group; stopAll() signals exactly those groups.
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Started {
  pid: number;
  /** Everything the process printed on stdout so far. */
  stdout(): string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

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

export class Processes {
  private readonly pids = new Set<number>();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  start(command: string, args: string[] = []): Started {
    const child = spawn(command, args, {
      env: this.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    if (child.pid === undefined) throw new Error(`could not start ${command}`);
    this.pids.add(child.pid);
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { pid: child.pid, stdout: () => out, exited };
  }

  track(pid: number): void {
    this.pids.add(pid);
  }

  async stop(pid: number): Promise<void> {
    signalGroup(pid, 'SIGTERM');
    for (let i = 0; i < 40 && alive(pid); i++) await sleep(50);
    if (alive(pid)) signalGroup(pid, 'SIGKILL');
    for (let i = 0; i < 40 && alive(pid); i++) await sleep(50);
    this.pids.delete(pid);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.pids].map((pid) => this.stop(pid)));
  }
}
