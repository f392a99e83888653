/**
 * One command the services run (osascript, sw_vers, pmset on macOS; pactl on Linux), without a shell: its input on
 * stdin, a time limit that kills it (SIGTERM, then SIGKILL after a grace), cancellation through an AbortSignal, and
 * stdout/stderr capped in size. execa loads on first use, so the server's start does not pay for it.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { MacpilotError } from '../errors.js';

/** Per stream, in characters: past this the command is stopped and what it printed so far is kept. */
export const OUTPUT_LIMIT = 1_000_000;
/** Between SIGTERM and SIGKILL for a command past its time limit. */
export const KILL_GRACE_MS = 2_000;

export interface ProcessRequest {
  file: string;
  args: readonly string[];
  /** Written to stdin, which is then closed. */
  input?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** What the command does, for errors: "Reading the output volume". */
  action: string;
  /** What to do when it runs out of time. */
  onTimeout: string;
  /** The whole environment of the command (default: the server's). */
  env?: NodeJS.ProcessEnv;
  /** What to do when the command is not there, e.g. the package that installs it. */
  notInstalled?: string;
}

export interface ProcessOutcome {
  stdout: string;
  stderr: string;
  /** Undefined when the command was stopped because its output was cut. */
  exitCode: number | undefined;
  durationMs: number;
  /** True when stdout or stderr reached OUTPUT_LIMIT and the command was stopped. */
  outputCut: boolean;
}

/** Whether `path` is a program this process may run: an executable file, not a folder. */
export function isProgram(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return !statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Where `name` is on the PATH of `env`, as a shell would find it; undefined when it is on none. */
export function findProgram(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(isProgram);
}

export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

export async function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const { execa } = await import('execa');
  const result = await execa(request.file, [...request.args], {
    input: request.input ?? '',
    timeout: request.timeoutMs,
    killSignal: 'SIGTERM',
    forceKillAfterDelay: KILL_GRACE_MS,
    cancelSignal: request.signal,
    maxBuffer: OUTPUT_LIMIT,
    stripFinalNewline: false,
    reject: false,
    ...(request.env ? { env: request.env, extendEnv: false } : {}),
  });
  if (result.isCanceled) {
    throw new MacpilotError({
      what: `${request.action}: cancelled`,
      why: `the request was cancelled, so ${request.file} was stopped`,
      next: 'nothing to do; call again if it is still wanted',
      kind: 'cancelled',
    });
  }
  if (result.timedOut) {
    throw new MacpilotError({
      what: `${request.action}: no answer within ${seconds(request.timeoutMs)}`,
      why: `${request.file} ran past the ${seconds(request.timeoutMs)} limit and was stopped (SIGTERM, then SIGKILL after ${seconds(KILL_GRACE_MS)})`,
      next: request.onTimeout,
      kind: 'command_timed_out',
    });
  }
  if (result.signal && !result.isMaxBuffer) {
    throw new MacpilotError({
      what: `${request.action}: ${request.file} was stopped`,
      why: `something outside macpilot sent it ${result.signal}`,
      next: "try again; if it keeps happening, look for what ends it in the system's log",
      kind: 'command_stopped_by_signal',
    });
  }
  if (result.code === 'ENOENT') {
    throw new MacpilotError({
      what: `${request.action}: ${request.file} could not run`,
      why: `${request.file} is not installed (${request.file.startsWith('/') ? 'no such file' : 'not found on PATH'})`,
      next: request.notInstalled ?? `install ${request.file}, or check PATH`,
      kind: 'command_not_installed',
    });
  }
  if (result.exitCode === undefined && !result.isMaxBuffer) {
    throw new MacpilotError(
      {
        what: `${request.action}: ${request.file} could not run`,
        why: result.shortMessage ?? `${request.file} did not start`,
        next: request.notInstalled ?? `check that ${request.file} exists and is executable`,
        kind: 'command_did_not_start',
      },
      { cause: result },
    );
  }
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode,
    durationMs: Math.round(result.durationMs),
    outputCut: result.isMaxBuffer,
  };
}
