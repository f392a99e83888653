/**
 * The packaged Wayland tools macpilot runs for what needs file descriptors passed (wtype, grim, wl-clipboard):
 * one process per call, stopped when the call is cancelled, a missing tool named with the package to install.
 */
import { spawn } from 'node:child_process';
import { HelperErrorCode } from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';

/** The Debian package of each tool. */
export const PACKAGE_OF: Readonly<Record<string, string>> = {
  wtype: 'wtype',
  grim: 'grim',
  'wl-copy': 'wl-clipboard',
  'wl-paste': 'wl-clipboard',
  'gst-launch-1.0': 'gstreamer1.0-tools gstreamer1.0-pipewire',
};

export interface RunOptions {
  input?: string;
  signal?: AbortSignal;
  /** The tool forks a process that serves on after it exits (wl-copy): it is done when it exits. */
  serves?: boolean;
}

export interface ToolRun {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

/** Runs `tool` to its end; a tool that is not installed fails with the package that has it. */
export function runTool(
  tool: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: RunOptions = {},
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    // A tool that leaves a server behind (wl-copy) would hold our pipes open: its output is not read.
    const output = options.serves ? 'ignore' : 'pipe';
    const child = spawn(tool, args, { env, stdio: ['pipe', output, output], signal: options.signal });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') {
        reject(
          new HelperFailure(
            HelperErrorCode.NotAvailable,
            `${tool} is not installed`,
            `install it (on Debian and Ubuntu: sudo apt install ${PACKAGE_OF[tool] ?? tool})`,
          ),
        );
      } else reject(options.signal?.aborted ? options.signal.reason : error);
    });
    child.on(options.serves ? 'exit' : 'close', (code) =>
      resolve({ stdout: Buffer.concat(out), stderr, code }),
    );
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}

/** Runs `tool` and fails, with its own words, when it exits with an error. */
export async function runToolOk(
  tool: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: RunOptions = {},
): Promise<Buffer> {
  const run = await runTool(tool, args, env, options);
  if (run.code !== 0) {
    throw new HelperFailure(
      HelperErrorCode.Failed,
      `${tool} failed (exit ${run.code}): ${run.stderr.trim() || 'no message'}`,
      'run macpilot doctor to check the Wayland session',
    );
  }
  return run.stdout;
}
