/**
 * relaunch_app's restart on Linux: the command line, environment and working folder of a running process, read
 * from /proc before it quits, and started again with each toolkit's accessibility switch on. A Chromium-family
 * browser is started with --restore-last-session and without the pages its command line named, so that it
 * reopens the tabs it had rather than only those it started with.
 */
import { spawn } from 'node:child_process';
import { readFile, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { MacpilotError } from '../../../errors.js';
import { findProgram, isProgram } from '../../../services/process.js';
import type { ProcessRestart, RelaunchService } from '../../../services/types.js';
import { accessibleEnvironment } from '../accessible-environment.js';

const CHROMIUM_FAMILY = new Set([
  'chromium',
  'chromium-browser',
  'chrome',
  'google-chrome',
  'google-chrome-stable',
  'brave',
  'brave-browser',
  'msedge',
  'microsoft-edge',
  'vivaldi-bin',
  'opera',
]);

const fields = (text: string): string[] => text.split('\0').filter((field) => field !== '');

/** The arguments a restart passes: a Chromium-family browser's flags, plus the switch that restores its tabs. */
export function restartArguments(program: string, args: readonly string[]): string[] {
  if (!CHROMIUM_FAMILY.has(basename(program))) return [...args];
  const flags = args.filter((arg) => arg.startsWith('-'));
  return flags.includes('--restore-last-session') ? flags : [...flags, '--restore-last-session'];
}

/**
 * The program and arguments of a command line read from /proc. Chromium (and Electron) rewrite theirs as one
 * string joined by spaces; that one is split at the spaces, and a program that is not a file is the executable
 * /proc names.
 */
export function commandLine(argv: readonly string[], exe: string): string[] {
  const [first, ...rest] = argv;
  if (first === undefined) return [];
  const joined = rest.length === 0 && first.includes(' ') && !isProgram(first);
  const [program = first, ...args] = joined ? first.split(' ').filter(Boolean) : argv;
  return [isProgram(program) || !isProgram(exe) ? program : exe, ...args];
}

/**
 * The environment a process was started with, from /proc; where that is gone (Chromium writes its long command
 * line over it) or names no display, macpilot's own, as launch_app starts apps with.
 */
export function environmentOf(entries: readonly string[], ownEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const pairs = entries.flatMap((entry) => {
    const at = /^[A-Za-z_][A-Za-z0-9_]*=/.test(entry) ? entry.indexOf('=') : -1;
    return at < 0 ? [] : [[entry.slice(0, at), entry.slice(at + 1)] as const];
  });
  const env: NodeJS.ProcessEnv = Object.fromEntries(pairs);
  return env.DISPLAY || env.WAYLAND_DISPLAY ? env : { ...ownEnv };
}

async function prepare(pid: number, ownEnv: NodeJS.ProcessEnv): Promise<ProcessRestart> {
  const proc = `/proc/${pid}`;
  let argv: string[];
  let environment: string[];
  let cwd: string;
  let exe: string;
  try {
    [argv, environment, cwd, exe] = await Promise.all([
      readFile(`${proc}/cmdline`, 'utf8').then(fields),
      readFile(`${proc}/environ`, 'utf8').then(fields),
      readlink(`${proc}/cwd`),
      readlink(`${proc}/exe`),
    ]);
  } catch (error) {
    throw new MacpilotError({
      what: `Cannot read how process ${pid} was started`,
      why: (error as NodeJS.ErrnoException).code === 'EACCES' ? 'it belongs to another user' : String(error),
      next: 'quit the app and start it again yourself',
      kind: 'cannot_relaunch',
    });
  }
  const [program, ...args] = commandLine(argv, exe);
  if (program === undefined) {
    throw new MacpilotError({
      what: `Process ${pid} has no command line to start again`,
      why: 'it is a kernel thread or a process that is exiting',
      next: 'quit the app and start it again yourself',
      kind: 'cannot_relaunch',
    });
  }
  const env = accessibleEnvironment(environmentOf(environment, ownEnv));
  // Checked before the app quits: it is left running when it could not be started again.
  const found = program.includes('/') ? isProgram(program) && program : findProgram(program, env);
  if (!found) {
    throw new MacpilotError({
      what: `Cannot start process ${pid} again: its program ${JSON.stringify(program)} is not there`,
      why: 'it was replaced or removed since it started (an update), or the process renamed its command line',
      next: 'quit the app and start it again yourself; it was left running',
      kind: 'cannot_relaunch',
    });
  }
  const kept = restartArguments(program, args);
  return {
    command: `${program}${kept.length > 0 ? ` with ${kept.length} argument${kept.length === 1 ? '' : 's'}` : ''}`,
    start: () =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(found, kept, { cwd, env, detached: true, stdio: 'ignore' });
        child.once('error', (error) =>
          reject(
            new MacpilotError({
              what: `${program} quit, but could not be started again`,
              why: error.message,
              next: 'start the app yourself (launch_app)',
              kind: 'cannot_relaunch',
            }),
          ),
        );
        child.once('spawn', () => {
          child.unref();
          resolve(child.pid ?? 0);
        });
      }),
  };
}

export const linuxRelaunch = (env: NodeJS.ProcessEnv): RelaunchService => ({
  prepare: (pid) => prepare(pid, env),
});
