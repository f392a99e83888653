/**
 * Processes a test starts (or is handed, like an app launched through launch_app) on the shared desktop. Each
 * leads its own process group; stopAll() signals exactly those groups.
 */
import { spawn } from 'node:child_process';
import { stopGroup } from '../../scripts/process-group.js';

export interface Started {
  pid: number;
  /** Everything the process printed on stdout so far. */
  stdout(): string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

export class Processes {
  private readonly pids = new Set<number>();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** `env`: added to the desktop's environment for this process. */
  start(command: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Started {
    const child = spawn(command, args, {
      env: { ...this.env, ...env },
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
    await stopGroup(pid);
    this.pids.delete(pid);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.pids].map((pid) => this.stop(pid)));
  }
}
