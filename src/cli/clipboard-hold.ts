/**
 * `clipboard set` on X11. There the clipboard's owner is the process that set it, and its text is gone when
 * that process exits (unless a clipboard manager takes it over). So the command runs in a detached child, which
 * answers through its parent (who prints it and exits) and then keeps owning the clipboard, as xclip does,
 * until another app takes it. The text goes to the child over the IPC channel, never on a command line.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { controlFolder, safeRead } from '../control.js';
import { MacpilotError } from '../errors.js';
import type { ToolDependencies } from '../tools/call.js';
import type { Format } from './commands.js';
import { type Output, runToolCommand } from './run.js';
import type { Invocation } from './tool-commands.js';

/** Set in the child's environment: it is the holder, and its parent sends the command. */
export const HOLDER_SETTING = 'MACPILOT_CLIPBOARD_HOLDER';
/** Also checked now and then, should a change of owner go unnoticed (a helper restarted, say). */
const RECHECK_MS = 30_000;
/** In the control folder: the pid of the holder that set the clipboard last. */
const HOLDER_FILE = 'clipboard-holder';

interface Request {
  invocation: Invocation;
  format: Format;
}

interface Reply {
  code: number;
  out: string;
  err: string;
}

export const needsHolder = (command: string, positionals: readonly string[]): boolean =>
  process.platform === 'linux' &&
  command === 'clipboard' &&
  positionals[0] === 'set' &&
  positionals.length === 2;

/** The parent: starts the holder, hands it the command, prints its answer. */
export async function setThroughHolder(invocation: Invocation, format: Format): Promise<number> {
  // A setting that is wrong is told here, where the person reads it, not lost in the holder: the holder keeps
  // its pid in the control folder, so that folder must be usable too.
  loadConfig();
  controlFolder();
  const script = process.argv[1] ?? '';
  const child = spawn(process.execPath, [script], {
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: { ...process.env, [HOLDER_SETTING]: '1' },
  });
  const reply = new Promise<Reply>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Reply));
    child.once('exit', (code) =>
      reject(
        new MacpilotError({
          what: 'The clipboard was not set',
          why: `the process that holds the clipboard's text exited (code ${code}) before it answered`,
          next: 'run `macpilot doctor` to see what is missing, then retry',
          kind: 'clipboard_not_set',
        }),
      ),
    );
  });
  child.send({ invocation, format } satisfies Request);
  const { code, out, err } = await reply;
  process.stdout.write(out);
  process.stderr.write(err);
  child.disconnect();
  child.unref();
  return code;
}

/** The child: runs the command, answers its parent, then owns the clipboard until another app takes it. */
export async function holdClipboard(): Promise<number> {
  delete process.env[HOLDER_SETTING];
  const send = process.send?.bind(process);
  if (!send) throw new Error(`${HOLDER_SETTING} is for the process macpilot starts itself`);
  const { invocation, format } = await new Promise<Request>((resolve) =>
    process.once('message', (message) => resolve(message as Request)),
  );
  const reply: Reply = { code: 0, out: '', err: '' };
  const output: Output = {
    out: (text) => (reply.out += text),
    err: (text) => (reply.err += text),
    image: () => {
      throw new Error('the clipboard command prints no image');
    },
  };
  return runToolCommand('clipboard', invocation, format, {
    output,
    after: async (runtime, code) => {
      const file = join(controlFolder(), HOLDER_FILE);
      send({ ...reply, code });
      process.disconnect();
      if (code !== 0) return;
      retire(file);
      writeFileSync(file, String(process.pid), { mode: 0o600 });
      try {
        await ownerChanged(runtime, invocation.positionals[1] ?? '');
      } finally {
        if (safeRead(file) === String(process.pid)) rmSync(file, { force: true });
      }
    },
  });
}

/**
 * Ends the holder that set the clipboard before this one: this one owns it now. Set to the same text, the old
 * one would never see the text change, and would hold on until the next copy.
 */
function retire(file: string): void {
  const pid = Number(safeRead(file));
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return;
  // Only a holder of macpilot's: its environment, as it started, says so.
  const environment = safeRead(`/proc/${pid}/environ`);
  if (!environment.split('\0').includes(`${HOLDER_SETTING}=1`)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // Gone already.
  }
}

/** Resolves once the clipboard no longer holds `text`, or cannot be read any more. */
async function ownerChanged({ engine }: ToolDependencies, text: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const check = () =>
      engine.kernel.port.call('clipboard.read', {}).then(
        (now) => now.text !== text && resolve(),
        () => resolve(),
      );
    const timer = setInterval(check, RECHECK_MS);
    void engine.feed.onClipboard(check).then(check);
    void timer;
  });
}
