/**
 * The kill switch a person can reach: every macpilot server of this user listens on a socket of its own in a
 * folder only the user can open (`$XDG_RUNTIME_DIR/macpilot`, else `<tmp>/macpilot-<uid>`); `macpilot stop` and
 * `macpilot resume` speak to each of them. One JSON line each way: the command, then the server's report. The
 * pause is also written down in that folder (`paused-until`), so that a server started during it starts paused.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { checkControlDir } from './config.js';
import { MacpilotError } from './errors.js';
import type { Logger } from './log.js';
import type { Desk } from './policy/desk.js';

const Command = z.discriminatedUnion('command', [
  z.object({ command: z.literal('stop'), pauseMs: z.number().int().min(0).optional() }),
  z.object({ command: z.literal('resume') }),
]);
export type ControlCommand = z.infer<typeof Command>;

const Report = z.object({
  pid: z.number().int(),
  cancelled: z.number().int(),
  /** Date.now() when actions may run again; 0 when they may now. */
  pausedUntil: z.number(),
  /** For resume: whether actions were paused until then. */
  wasPaused: z.boolean().optional(),
});
export type ControlReport = z.infer<typeof Report>;

/** How long `macpilot stop` waits for one server to answer. */
const ANSWER_MS = 3000;

const uid = () => process.getuid?.() ?? 0;

/**
 * The folder of the sockets (MACPILOT_CONTROL_DIR sets another, for a group of servers of their own), made private
 * to the user; refused when someone else owns it.
 */
export function controlFolder(env: NodeJS.ProcessEnv = process.env): string {
  const folder = env.MACPILOT_CONTROL_DIR
    ? env.MACPILOT_CONTROL_DIR
    : env.XDG_RUNTIME_DIR
      ? join(env.XDG_RUNTIME_DIR, 'macpilot')
      : join(tmpdir(), `macpilot-${uid()}`);
  const unusable = (why: string) =>
    new MacpilotError({
      what: `The kill switch's folder ${folder} cannot be used`,
      why,
      next: env.MACPILOT_CONTROL_DIR
        ? 'set MACPILOT_CONTROL_DIR to the absolute path of a folder of your own (it is created when missing), or unset it'
        : 'set MACPILOT_CONTROL_DIR to a folder of your own (it is created when missing)',
    });
  checkControlDir(env);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw unusable(
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'a file stands where the folder, or one above it, should be'
        : `it cannot be made (${code ?? (error as Error).message})`,
    );
  }
  const stat = lstatSync(folder);
  if (!stat.isDirectory() || stat.uid !== uid()) {
    throw unusable("it is not a folder of this user's, so the kill switch will not use it");
  }
  chmodSync(folder, 0o700);
  return folder;
}

const PAUSE_FILE = 'paused-until';

/** Date.now() until which `macpilot stop` paused actions, as written down; undefined when no pause holds. */
export function pauseWrittenDown(folder: string = controlFolder()): number | undefined {
  const until = Number(safeRead(join(folder, PAUSE_FILE)));
  return Number.isFinite(until) && until > Date.now() ? until : undefined;
}

/** Writes down a pause until `until` (Date.now() ms), or removes it (0). */
export function writePause(until: number, folder: string = controlFolder()): void {
  const file = join(folder, PAUSE_FILE);
  if (until > Date.now()) writeFileSync(file, String(until), { mode: 0o600 });
  else rmSync(file, { force: true });
}

/**
 * Listens for stop and resume on this server's socket, after taking on a pause a stop wrote down before this
 * server started; the returned function stops listening.
 */
export async function listenForControl(desk: Desk, log: Logger): Promise<() => void> {
  const folder = controlFolder();
  const pausedUntil = pauseWrittenDown(folder);
  if (pausedUntil !== undefined) desk.pauseUntil(pausedUntil);
  const socket = join(folder, `${process.pid}.sock`);
  rmSync(socket, { force: true });
  const server = createServer((connection) => {
    let text = '';
    connection.setEncoding('utf8');
    connection.on('error', () => {});
    connection.on('data', (chunk: string) => {
      text += chunk;
      if (!text.includes('\n') && text.length < 1000) return;
      const parsed = Command.safeParse(safeJson(text.split('\n')[0] ?? ''));
      if (!parsed.success) {
        connection.end();
        return;
      }
      const report = answer(desk, parsed.data);
      log.info(
        `the person at the desk ran macpilot ${parsed.data.command}: ${report.cancelled} calls cancelled`,
      );
      connection.end(`${JSON.stringify(report)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  chmodSync(socket, 0o600);
  server.unref();
  const remove = () => rmSync(socket, { force: true });
  process.once('exit', remove);
  return () => {
    server.close();
    remove();
  };
}

function answer(desk: Desk, command: ControlCommand): ControlReport {
  if (command.command === 'resume') {
    const wasPaused = desk.paused() !== undefined;
    desk.resume();
    return { pid: process.pid, cancelled: 0, pausedUntil: 0, wasPaused };
  }
  return { pid: process.pid, ...desk.stop(command.pauseMs) };
}

/** Sends `command` to every server of this user; sockets no server answers on are removed. */
export async function sendToServers(command: ControlCommand): Promise<ControlReport[]> {
  const folder = controlFolder();
  const sockets = readdirSync(folder).filter((name) => /^\d+\.sock$/.test(name));
  const answers = await Promise.all(sockets.map((name) => ask(join(folder, name), command)));
  return answers.filter((report): report is ControlReport => report !== undefined);
}

function ask(socket: string, command: ControlCommand): Promise<ControlReport | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const connection = createConnection(socket);
    const timer = setTimeout(() => connection.destroy(), ANSWER_MS);
    connection.setEncoding('utf8');
    connection.on('connect', () => connection.write(`${JSON.stringify(command)}\n`));
    connection.on('data', (chunk: string) => (text += chunk));
    connection.on('error', (error: NodeJS.ErrnoException) => {
      // Nobody listens there any more: a server that ended without removing its socket.
      if (error.code === 'ECONNREFUSED' && existsSync(socket)) rmSync(socket, { force: true });
    });
    connection.on('close', () => {
      clearTimeout(timer);
      const parsed = Report.safeParse(safeJson(text.split('\n')[0] ?? ''));
      resolve(parsed.success ? parsed.data : undefined);
    });
  });
}

/** A small file's text, trimmed; '' when it cannot be read. */
export function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
