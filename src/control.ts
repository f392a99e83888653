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
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { checkControlDir } from './config.js';
import { MacpilotError } from './errors.js';
import type { Logger } from './log.js';
import { DEFAULT_PAUSE_MS, type Desk, type StopPlace } from './policy/desk.js';
import type { CallFeed, WatchEvent } from './policy/watch.js';

const Command = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('stop'),
    pauseMs: z.number().int().min(0).optional(),
    /** Where the person stopped it: the console, else the command line. */
    by: z.enum(['console', 'command']).optional(),
  }),
  z.object({ command: z.literal('resume') }),
  /** Keeps the connection open and sends every WatchEvent as a line; answers to consent questions come back. */
  z.object({ command: z.literal('watch') }),
]);
/** What a watching console sends on its connection: a person's answer, and how many of its pages are open. */
const WatcherLine = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('answer'),
    id: z.string().max(100),
    answer: z.enum(['once', 'session', 'deny']),
  }),
  z.object({ command: z.literal('pages'), open: z.number().int().min(0).max(10_000) }),
]);
export type ControlCommand = Exclude<z.infer<typeof Command>, { command: 'watch' }>;

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
      kind: 'control_folder_unusable',
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
const PAUSED_BY_FILE = 'paused-by';

/** A pause written down: until when (Date.now() ms), and where the person stopped the agents. */
export interface WrittenPause {
  until: number;
  by: StopPlace;
}

/** The pause a stop wrote down, while it holds; undefined when none does. */
export function pauseWrittenDown(folder: string = controlFolder()): WrittenPause | undefined {
  const ms = Number(safeRead(join(folder, PAUSE_FILE)));
  if (!Number.isFinite(ms) || ms <= Date.now()) return undefined;
  return { until: ms, by: safeRead(join(folder, PAUSED_BY_FILE)) === 'console' ? 'console' : 'command' };
}

/**
 * Writes down a pause until `until` (Date.now() ms) and where it was asked, or removes it (0). The place is a file
 * of its own: an older macpilot sharing the folder reads `paused-until` as the number it always was.
 */
export function writePause(until: number, folder: string = controlFolder(), by: StopPlace = 'command'): void {
  const file = join(folder, PAUSE_FILE);
  const byFile = join(folder, PAUSED_BY_FILE);
  if (until > Date.now()) {
    writeFileSync(byFile, by, { mode: 0o600 });
    writeFileSync(file, String(until), { mode: 0o600 });
  } else {
    rmSync(file, { force: true });
    rmSync(byFile, { force: true });
  }
}

/**
 * Listens for stop and resume on this server's socket, after taking on a pause a stop wrote down before this
 * server started, and serves watching consoles there; the returned function stops listening.
 */
export async function listenForControl(
  { desk, feed }: { desk: Desk; feed: CallFeed },
  log: Logger,
  serving: () => string,
): Promise<() => void> {
  const folder = controlFolder();
  // A server started during a pause tells agents where the person stopped them, as the others do.
  const written = pauseWrittenDown(folder);
  if (written !== undefined) desk.pauseUntil(written.until, written.by);
  const socket = join(folder, `${process.pid}.sock`);
  rmSync(socket, { force: true });
  const connections = new Set<Socket>();
  const server = createServer((connection) => {
    connections.add(connection);
    connection.once('close', () => connections.delete(connection));
    let text = '';
    connection.setEncoding('utf8');
    connection.on('error', () => {});
    const onData = (chunk: string) => {
      text += chunk;
      if (!text.includes('\n') && text.length < MAX_LINE) return;
      const parsed = Command.safeParse(safeJson(text.split('\n')[0] ?? ''));
      connection.off('data', onData);
      if (!parsed.success) {
        connection.end();
        return;
      }
      if (parsed.data.command === 'watch') {
        watch(connection, feed, desk, serving, text.slice(text.indexOf('\n') + 1));
        return;
      }
      const report = answer(desk, parsed.data);
      feed.emit({ type: 'desk', pausedUntil: report.pausedUntil, by: byOf(parsed.data) });
      log.info(
        `the person at the desk ran macpilot ${parsed.data.command}: ${report.cancelled} calls cancelled`,
      );
      connection.end(`${JSON.stringify(report)}\n`);
    };
    connection.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  chmodSync(socket, 0o600);
  server.unref();
  // Consoles open now are told of this server before it serves its first call: a console finds new servers by
  // looking at the folder, a second later, and the first calls would go unseen (and unasked) meanwhile.
  await Promise.all(
    readdirSync(folder)
      .filter((name) => CONSOLE_SOCKET.test(name))
      .map((name) => announce(join(folder, name), feed, desk, serving)),
  );
  const remove = () => rmSync(socket, { force: true });
  process.once('exit', remove);
  return () => {
    server.close();
    // Watching consoles learn that this server is gone.
    for (const connection of connections) connection.destroy();
    remove();
  };
}

/** A console's socket in the folder: servers that start connect to it (src/console/hub.ts). */
export const CONSOLE_SOCKET = /^console-\d+\.sock$/;
/** A browser a console started for its page, by its pid: hidden from agents like a denied app. */
const CONSOLE_BROWSER = /^console-browser-(\d+)$/;

/** Notes the browser process showing the console, so that every server hides it; the returned function forgets it. */
export function registerConsoleBrowser(pid: number, folder: string = controlFolder()): () => void {
  const file = join(folder, `console-browser-${pid}`);
  writeFileSync(file, '', { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

/** The pids of the console browsers running now (a note whose process ended is ignored). */
export function consoleBrowsers(folder: string = controlFolder()): Set<number> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return new Set();
  }
  const pids = names.flatMap((name) => {
    const pid = Number(CONSOLE_BROWSER.exec(name)?.[1]);
    return Number.isInteger(pid) && pid > 0 ? [pid] : [];
  });
  return new Set(pids.filter(processRunning));
}

/** Whether a process with this pid runs (one of another user's counts). */
export const processRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};
/** How long a starting server waits for a console to take its announcement. */
const ANNOUNCE_MS = 1000;

/** Connects to a console's socket and serves it as a watching console; resolves once connected, or not. */
function announce(socket: string, feed: CallFeed, desk: Desk, serving: () => string): Promise<void> {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    connection.setEncoding('utf8');
    const timer = setTimeout(() => {
      connection.destroy();
      resolve();
    }, ANNOUNCE_MS);
    connection.on('error', () => {
      clearTimeout(timer);
      resolve();
    });
    connection.on('connect', () => {
      clearTimeout(timer);
      watch(connection, feed, desk, serving, '');
      resolve();
    });
  });
}

/** The longest line a control connection may send. */
const MAX_LINE = 1000;
/** The most a watcher may leave unread before it is let go: a stalled console does not hold the server's memory. */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

/** Where the person asked a stop (a resume: where any stop is asked, the command line). */
const byOf = (command: ControlCommand): StopPlace =>
  command.command === 'stop' ? (command.by ?? 'command') : 'command';

/** Streams the feed's events to a watching console, and takes its answers to consent questions. */
function watch(connection: Socket, feed: CallFeed, desk: Desk, serving: () => string, rest: string): void {
  const send = (event: WatchEvent | { type: 'hello'; pid: number; serving: string }) => {
    if (connection.writableLength > MAX_UNREAD_BYTES) connection.destroy();
    else connection.write(`${JSON.stringify(event)}\n`);
  };
  send({ type: 'hello', pid: process.pid, serving: serving() });
  send({ type: 'desk', pausedUntil: desk.paused() ?? 0 });
  for (const event of feed.current()) send(event);
  const stop = feed.watch(send);
  connection.on('close', stop);
  let pending = rest;
  const take = (chunk: string) => {
    pending += chunk;
    let end;
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = WatcherLine.safeParse(safeJson(pending.slice(0, end)));
      pending = pending.slice(end + 1);
      // A line that does not fit is dropped: the calls go on whatever a console sends.
      if (!line.success) continue;
      if (line.data.command === 'answer') feed.answer(line.data.id, line.data.answer);
      else feed.seen(send, line.data.open);
    }
    if (pending.length > MAX_LINE) pending = '';
  };
  connection.on('data', take);
  take('');
}

function answer(desk: Desk, command: ControlCommand): ControlReport {
  if (command.command === 'resume') {
    const wasPaused = desk.paused() !== undefined;
    desk.resume();
    return { pid: process.pid, cancelled: 0, pausedUntil: 0, wasPaused };
  }
  return { pid: process.pid, ...desk.stop(command.pauseMs, command.by) };
}

/**
 * The person's stop or resume, from the command line or the console: the pause written down first (a server that
 * starts while the others are told starts paused too), then sent to every server.
 */
export async function stopOrResume(
  command: ControlCommand,
  folder: string = controlFolder(),
): Promise<{ reports: ControlReport[]; pausedUntil: number }> {
  const pausedUntil = command.command === 'stop' ? Date.now() + (command.pauseMs ?? DEFAULT_PAUSE_MS) : 0;
  writePause(pausedUntil, folder, byOf(command));
  return { reports: await sendToServers(command, folder), pausedUntil };
}

/** Sends `command` to every server of this user; sockets no server answers on are removed. */
export async function sendToServers(
  command: ControlCommand,
  folder: string = controlFolder(),
): Promise<ControlReport[]> {
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

/** The JSON `text` holds, or undefined when it is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
