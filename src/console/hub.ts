/**
 * The console's view of every macpilot server of this user: it watches each one on its control socket (the
 * kill switch's folder, src/control.ts), finds new servers as they start, and keeps what a page that opens now
 * shows: the servers, the recent calls (a capped timeline whose pictures expire), the questions waiting for an
 * answer and the pause.
 */
import { chmodSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server as SocketServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { controlFolder, pauseWrittenDown, safeJson } from '../control.js';
import type { ConsoleAnswer } from '../policy/watch.js';
import { WatchEvent } from '../policy/watch.js';

/** How often the folder is looked at for servers that started. */
const SCAN_MS = 1000;
/** Calls the timeline keeps; older ones fall off. */
export const TIMELINE_MAX = 500;
/** Calls whose pictures are kept: older ones lose them (a console open for hours holds little). */
const PICTURED_MAX = 40;

const Hello = z.object({ type: z.literal('hello'), pid: z.number(), serving: z.string() });
const ServerLine = z.union([Hello, WatchEvent]);

/** An event as the page receives it: which server it came from. */
export type HubEvent =
  | (WatchEvent & { pid: number })
  | { type: 'server'; pid: number; serving: string; up: boolean }
  /** The pause written down in the control folder (0: none), which servers that start take on. */
  | { type: 'pause'; until: number };

interface Server {
  pid: number;
  serving: string;
  socket: Socket;
  pausedUntil: number;
  /** Its recording running now. */
  recording?: Extract<HubEvent, { type: 'recording' }>;
}

export class Hub {
  private readonly servers = new Map<string, Server | 'connecting'>();
  private readonly timeline: (WatchEvent & { pid: number })[] = [];
  private readonly questions = new Map<string, Extract<HubEvent, { type: 'consent' }>>();
  private readonly listeners = new Set<(event: HubEvent) => void>();
  private readonly questionListeners = new Set<(question: Extract<HubEvent, { type: 'consent' }>) => void>();
  private readonly scanner: NodeJS.Timeout;
  /** Where servers that start announce themselves (CONSOLE_SOCKET). */
  private readonly inbox: SocketServer;
  private readonly inboxPath: string;
  /** The pause written down when the folder was last looked at. */
  private writtenPause = 0;

  /** `folder`: the kill switch's folder, where the servers listen. */
  constructor(readonly folder: string = controlFolder()) {
    this.inboxPath = join(folder, `console-${process.pid}.sock`);
    rmSync(this.inboxPath, { force: true });
    this.inbox = createServer((socket) => this.serve(socket, undefined));
    this.inbox.listen(this.inboxPath, () => chmodSync(this.inboxPath, 0o600));
    this.inbox.on('error', () => {});
    this.inbox.unref();
    this.scan();
    this.scanner = setInterval(() => this.scan(), SCAN_MS);
    this.scanner.unref();
  }

  /**
   * `listener` (an open page) hears every event from now on; the returned function stops it. The servers learn
   * how many pages are open: they ask in the console only while one is.
   */
  listen(listener: (event: HubEvent) => void): () => void {
    this.listeners.add(listener);
    this.tellPages();
    return () => {
      this.listeners.delete(listener);
      this.tellPages();
    };
  }

  /** What a page that opens now is shown before the events that follow. */
  state(): HubEvent[] {
    const servers: HubEvent[] = [];
    for (const server of this.servers.values()) {
      if (server === 'connecting') continue;
      servers.push({ type: 'server', pid: server.pid, serving: server.serving, up: true });
      servers.push({ type: 'desk', pid: server.pid, pausedUntil: server.pausedUntil });
      if (server.recording) servers.push(server.recording);
    }
    return [
      { type: 'pause', until: this.writtenPause },
      ...servers,
      ...this.timeline,
      ...this.questions.values(),
    ];
  }

  /** Whether any server is watched now. */
  serverCount(): number {
    return [...this.servers.values()].filter((s) => s !== 'connecting').length;
  }

  /** A call ran within the last `ms`, or runs now. */
  busy(): boolean {
    return this.running.size > 0 || performance.now() - this.lastCall < BUSY_MS;
  }

  /**
   * Whether an agent acts now, or did a moment ago: an action of a watched server runs (one that waits for a
   * person's answer does not count), or one ended within ACTING_GRACE_MS. An "allow" that arrives then may be the
   * agent's own click on the console's page in a browser it operates, so it is not taken.
   */
  agentActing(): boolean {
    const acting = [...this.running.values()].some((call) => call.write && !call.waiting);
    return acting || performance.now() - this.lastAction < ACTING_GRACE_MS;
  }

  /** Sends a person's answer to the server that asked; false when no server asked it. */
  answer(id: string, answer: ConsoleAnswer): boolean {
    const question = this.questions.get(id);
    const server =
      question && [...this.servers.values()].find((s) => s !== 'connecting' && s.pid === question.pid);
    if (!server || server === 'connecting') return false;
    server.socket.write(`${JSON.stringify({ command: 'answer', id, answer })}\n`);
    return true;
  }

  private tellPages(server?: Server): void {
    const line = `${JSON.stringify({ command: 'pages', open: this.listeners.size })}\n`;
    const servers = server ? [server] : [...this.servers.values()];
    for (const watched of servers) if (watched !== 'connecting') watched.socket.write(line);
  }

  close(): void {
    clearInterval(this.scanner);
    this.inbox.close();
    rmSync(this.inboxPath, { force: true });
    for (const server of this.servers.values()) if (server !== 'connecting') server.socket.destroy();
  }

  /** The calls started and not yet ended, by id (`<pid>-<n>`); `waiting`: for a person's answer. */
  private readonly running = new Map<
    string,
    { pid: number; session: string; tool: string; write: boolean; waiting: boolean }
  >();
  /** Which running call each open question holds up. */
  private readonly waitingFor = new Map<string, string>();
  private lastCall = -Infinity;
  private lastAction = -Infinity;

  private scan(): void {
    // A pause holds for servers that start later, and shows with none running (`macpilot stop`, the page's Stop).
    const pause = pauseWrittenDown(this.folder)?.until ?? 0;
    if (pause !== this.writtenPause) {
      this.writtenPause = pause;
      for (const listener of this.listeners) listener({ type: 'pause', until: pause });
    }
    let names: string[];
    try {
      names = readdirSync(this.folder).filter((name) => /^\d+\.sock$/.test(name));
    } catch {
      return;
    }
    for (const name of names) if (!this.servers.has(name)) this.connect(name);
  }

  private connect(name: string): void {
    this.servers.set(name, 'connecting');
    const socket = createConnection(join(this.folder, name));
    socket.on('connect', () => socket.write(`${JSON.stringify({ command: 'watch' })}\n`));
    this.serve(socket, name);
  }

  /**
   * Reads a watched server's lines, on a connection the hub made (`named`: the server's socket) or one a starting
   * server made to the hub's inbox (its name known at its hello).
   */
  private serve(socket: Socket, named: string | undefined): void {
    let name = named;
    let server: Server | undefined;
    let text = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('close', () => {
      if (name !== undefined && this.servers.get(name) === (server ?? 'connecting'))
        this.servers.delete(name);
      if (!server) return;
      for (const [id, question] of this.questions) if (question.pid === server.pid) this.questions.delete(id);
      for (const id of this.running.keys()) if (id.startsWith(`${server.pid}-`)) this.running.delete(id);
      this.emit({ type: 'server', pid: server.pid, serving: server.serving, up: false });
    });
    socket.on('data', (chunk: string) => {
      text += chunk;
      let end;
      while ((end = text.indexOf('\n')) >= 0) {
        const line = ServerLine.safeParse(safeJson(text.slice(0, end)));
        text = text.slice(end + 1);
        if (!line.success) continue;
        if (line.data.type === 'hello') {
          const key = `${line.data.pid}.sock`;
          const known = this.servers.get(key);
          // Watched once: a server that announced itself and was found by a scan too keeps one connection.
          if (known && known !== 'connecting' && known.socket !== socket) {
            socket.destroy();
            return;
          }
          name = key;
          server = { pid: line.data.pid, serving: line.data.serving, socket, pausedUntil: 0 };
          this.servers.set(key, server);
          this.tellPages(server);
          this.emit({ type: 'server', pid: server.pid, serving: server.serving, up: true });
        } else if (server) {
          this.take(server, line.data);
        }
      }
    });
  }

  private take(server: Server, event: WatchEvent): void {
    const stamped = { ...event, pid: server.pid };
    switch (event.type) {
      case 'desk':
        server.pausedUntil = event.pausedUntil;
        break;
      case 'consent': {
        this.questions.set(event.id, stamped as Extract<HubEvent, { type: 'consent' }>);
        // The question holds up the latest call of its session and tool: that one is waiting, not acting.
        const held = [...this.running].findLast(
          ([, c]) =>
            c.pid === server.pid && c.session === event.session && c.tool === event.tool && !c.waiting,
        );
        if (held) {
          held[1].waiting = true;
          this.waitingFor.set(event.id, held[0]);
        }
        break;
      }
      case 'answered': {
        this.questions.delete(event.id);
        const held = this.running.get(this.waitingFor.get(event.id) ?? '');
        if (held) held.waiting = false;
        this.waitingFor.delete(event.id);
        break;
      }
      case 'started':
        this.running.set(event.call, {
          pid: server.pid,
          session: event.session,
          tool: event.tool,
          write: event.write,
          waiting: false,
        });
        this.lastCall = performance.now();
        this.remember(stamped);
        break;
      case 'ended':
        if (this.running.get(event.call)?.write === true) this.lastAction = performance.now();
        this.running.delete(event.call);
        this.lastCall = performance.now();
        this.remember(stamped);
        break;
      case 'recording':
        server.recording = event.running ? (stamped as Extract<HubEvent, { type: 'recording' }>) : undefined;
        break;
      case 'pictured': {
        // Kept with the call while it is among the latest, whose pictures are kept.
        const at = this.timeline.findLastIndex((e) => e.type === 'ended' && e.call === event.call);
        const ended = this.timeline[at];
        if (ended?.type === 'ended' && this.timeline.length - at <= PICTURED_MAX) {
          if (event.before) ended.before = event.before;
          if (event.after) ended.after = event.after;
        }
        break;
      }
      case 'progress':
        break;
    }
    this.emit(stamped);
  }

  /** Keeps a call in the timeline, capped; pictures only for the latest. */
  private remember(event: WatchEvent & { pid: number }): void {
    // A call that ended takes the place of its start.
    const started =
      event.type === 'ended'
        ? this.timeline.findLastIndex((e) => e.type === 'started' && e.call === event.call)
        : -1;
    if (started >= 0) this.timeline.splice(started, 1);
    this.timeline.push(event);
    if (this.timeline.length > TIMELINE_MAX) this.timeline.splice(0, this.timeline.length - TIMELINE_MAX);
    const old = this.timeline.length - PICTURED_MAX - 1;
    const expired = old >= 0 ? this.timeline[old] : undefined;
    if (expired?.type === 'ended') {
      delete expired.before;
      delete expired.after;
    }
  }

  /**
   * `listener` hears each question as it is asked, without counting as an open page (the console's desktop
   * notice); the returned function stops it.
   */
  onQuestion(listener: (question: Extract<HubEvent, { type: 'consent' }>) => void): () => void {
    this.questionListeners.add(listener);
    return () => this.questionListeners.delete(listener);
  }

  private emit(event: HubEvent): void {
    for (const listener of this.listeners) listener(event);
    if (event.type === 'consent') for (const listener of this.questionListeners) listener(event);
  }
}

/** After a call, how long the screen is watched closely. */
const BUSY_MS = 2000;
/** How long after an agent's action an allow is not taken: more than a page takes to send a click it was given. */
export const ACTING_GRACE_MS = 1000;
