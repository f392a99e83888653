/** How a helper process is started: by the client when a request needs one, or by the CLI ahead of it. */
import { type ChildProcess, spawn } from 'node:child_process';

export interface HelperCommand {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Runs before each start to put `command` in place (macOS: installs the helper app on first use). */
  prepare?: (signal?: AbortSignal) => Promise<void>;
}

/** A helper process started before its client needed it, with the command it was started with. */
export interface StartedHelper {
  command: HelperCommand;
  process: ChildProcess;
}

/**
 * Start the helper, its stdio piped. A group of its own: a helper that must be killed (it never answered, or
 * hangs at close) goes with whatever it started. One that exits by itself leaves what serves on after it
 * (wl-copy's clipboard server).
 */
export function spawnHelper({ command, args, env }: HelperCommand): ChildProcess {
  return spawn(command, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: env ?? process.env,
    detached: process.platform !== 'win32',
  });
}

/**
 * Start the helper now, while the caller loads the rest, for a client that takes it over (HelperClientOptions.
 * started). Undefined when it must not start before the client (it has to be put in place first). A process
 * that fails to start is left for the client to start again, which then reports why.
 */
export function startHelperEarly(command: HelperCommand): StartedHelper | undefined {
  if (command.prepare) return undefined;
  const process = spawnHelper(command);
  process.once('error', () => {});
  return { command, process };
}
