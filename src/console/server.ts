/**
 * The console's web side, on loopback: the page (console/ at the package root), a stream of the hub's events
 * (server-sent events), the live screen, and the person's Stop, Resume and answers to consent questions.
 *
 * Access: a one-time link (`/console/open?key=…`) sets a cookie bound to this host (HttpOnly, SameSite=Strict)
 * and sends the browser on to the page, whose address holds no secret; every other request needs the cookie and
 * passes the MCP endpoint's Host and Origin checks, and the person's actions also need a same-origin JSON body.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import { stopOrResume } from '../control.js';
import { rebindingRefusal } from '../mcp/http.js';
import type { Bounds } from '../helper-client/protocol.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { DEFAULT_PAUSE_MS } from '../policy/desk.js';
import type { Hub, HubEvent } from './hub.js';
import type { LiveScreen } from './live-screen.js';

export const CONSOLE_PATH = '/console';
const COOKIE = 'macpilot_console';
/** The most a person's request body may hold. */
const MAX_BODY = 4096;
/** Keeps the event stream open through proxies and idle timers. */
const HEARTBEAT_MS = 15_000;

const PAGE_FILES: Record<string, string> = {
  '/': 'index.html',
  '/console.js': 'console.js',
  '/console.css': 'console.css',
};
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
/** The page loads nothing from beyond this server, and no other site may frame it. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const Answer = z.object({ id: z.string().max(100), answer: z.enum(['once', 'session', 'deny']) });
const Stop = z.object({
  minutes: z
    .number()
    .min(0)
    .max(24 * 60)
    .optional(),
});

export interface ConsoleOptions {
  hub: Hub;
  screen: LiveScreen;
  /** The address the HTTP server is bound to (the Host and Origin checks). */
  host: string;
  /** A key that opens the console however often it is used (serve --http's MACPILOT_HTTP_TOKEN). */
  standingKey?: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

export class ConsoleSite {
  /** Keys of one-time links not used yet. */
  private readonly keys = new Set<string>();
  /** The cookie's value: one secret for the console's life. */
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly streams = new Set<ServerResponse>();

  constructor(private readonly options: ConsoleOptions) {}

  /** A new one-time link's path and query: it opens the console once. */
  oneTimeLink(): string {
    const key = randomBytes(24).toString('base64url');
    this.keys.add(key);
    return `${CONSOLE_PATH}/open?key=${key}`;
  }

  /** How many pages watch now. */
  viewers(): number {
    return this.streams.size;
  }

  /** Answers a request under /console; false when the path is not the console's. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== CONSOLE_PATH && !url.pathname.startsWith(`${CONSOLE_PATH}/`)) return false;
    const path = url.pathname.slice(CONSOLE_PATH.length) || '/';
    const rebinding = rebindingRefusal(req.headers, this.options.host);
    if (rebinding) return refuse(res, 403, rebinding);
    if (path === '/open' && req.method === 'GET') return this.open(url, res);
    if (!this.hasCookie(req)) {
      return refuse(res, 403, 'open the console with the link `macpilot console` printed (it works once)');
    }
    if (req.method === 'GET') {
      if (path === '/events') return this.stream(req, res);
      if (path === '/screen') return this.screen(res);
      const file = PAGE_FILES[path];
      if (file) return this.page(file, res);
      return refuse(res, 404, 'not found');
    }
    if (req.method === 'POST') {
      // A form of another site cannot send JSON without asking first (CORS), and never with the cookie.
      if (
        !/^application\/json\b/.test(req.headers['content-type'] ?? '') ||
        req.headers.origin === undefined
      ) {
        return refuse(res, 403, 'the console takes JSON from its own page only');
      }
      const body = await readBody(req);
      if (body === undefined) return refuse(res, 413, `over ${MAX_BODY} bytes`);
      if (path === '/answer') return this.answer(body, res);
      if (path === '/stop') return this.stop(body, res);
      if (path === '/resume') return this.resume(res);
    }
    return refuse(res, 404, 'not found');
  }

  /** Ends every event stream (the console is closing). */
  close(): void {
    for (const stream of this.streams) stream.end();
  }

  private open(url: URL, res: ServerResponse): true {
    const key = url.searchParams.get('key') ?? '';
    const standing = this.options.standingKey !== undefined && same(this.options.standingKey, key);
    const known = [...this.keys].find((k) => same(k, key));
    if (known === undefined && !standing) {
      return refuse(
        res,
        403,
        'this link was used already or is wrong: run `macpilot console` again for a new one',
      );
    }
    if (known !== undefined) this.keys.delete(known);
    // A page of this host goes on to the console, not a redirect: a redirect stays part of the navigation that
    // asked for the link, and one that came from another site (the console's own window starts on a file of its
    // profile) would not send a SameSite=Strict cookie back.
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      // No Domain: the cookie goes back to this host only; no Max-Age: it ends with the browser's session.
      'set-cookie': `${COOKIE}=${this.secret}; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict`,
      ...PAGE_HEADERS,
    });
    res.end(
      `<!doctype html><meta http-equiv="refresh" content="0;url=${CONSOLE_PATH}/"><title>macpilot console: opening</title>\n`,
    );
    return true;
  }

  private hasCookie(req: IncomingMessage): boolean {
    const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim());
    const value = cookies.find((c) => c.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1);
    return value !== undefined && same(value, this.secret);
  }

  private async page(file: string, res: ServerResponse): Promise<true> {
    const path = join(PACKAGE_ROOT, 'console', file);
    const body = await readFile(path).catch(() => undefined);
    if (body === undefined) {
      return refuse(
        res,
        500,
        `this install of macpilot lacks the console's page (${path}): install it again`,
      );
    }
    res.writeHead(200, {
      'content-type': TYPES[file.split('.').pop() ?? ''] ?? 'text/plain',
      ...PAGE_HEADERS,
    });
    res.end(body);
    return true;
  }

  private stream(req: IncomingMessage, res: ServerResponse): true {
    res.writeHead(200, { 'content-type': 'text/event-stream', ...PAGE_HEADERS, connection: 'keep-alive' });
    const send = (event: HubEvent | { type: 'screen'; version: number; area: Bounds }) => {
      // A page that stopped reading is let go: its unread events would grow without end.
      if (res.writableLength > MAX_UNREAD) res.destroy();
      else res.write(`data: ${JSON.stringify(event)}\n\n`);
    };
    for (const event of this.options.hub.state()) send(event);
    const stopHub = this.options.hub.listen(send);
    const stopScreen = this.options.screen.watch((version, area) => send({ type: 'screen', version, area }));
    const heartbeat = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
    this.streams.add(res);
    req.on('close', () => {
      clearInterval(heartbeat);
      stopHub();
      stopScreen();
      this.streams.delete(res);
    });
    return true;
  }

  private screen(res: ServerResponse): true {
    const frame = this.options.screen.latest();
    if (!frame) return refuse(res, 404, 'no picture of the screen yet');
    res.writeHead(200, { 'content-type': 'image/jpeg', ...PAGE_HEADERS });
    res.end(frame);
    return true;
  }

  private answer(body: unknown, res: ServerResponse): true {
    const parsed = Answer.safeParse(body);
    if (!parsed.success) return refuse(res, 400, 'give id and answer (once, session or deny)');
    // A deny is taken whoever clicked it; an allow only from the person, and while an agent acts it may not be.
    if (parsed.data.answer !== 'deny' && this.options.hub.agentActing()) {
      return refuse(
        res,
        409,
        'an agent is acting right now, and an allow clicked meanwhile could be its own: answer again in a moment',
      );
    }
    const sent = this.options.hub.answer(parsed.data.id, parsed.data.answer);
    if (!sent) return refuse(res, 409, 'that question is no longer open: it was answered, or it expired');
    return ok(res, { sent: true });
  }

  private async stop(body: unknown, res: ServerResponse): Promise<true> {
    const parsed = Stop.safeParse(body);
    if (!parsed.success) return refuse(res, 400, 'minutes: a number from 0 to 1440');
    const pauseMs =
      parsed.data.minutes === undefined ? DEFAULT_PAUSE_MS : Math.round(parsed.data.minutes * 60_000);
    const { reports } = await stopOrResume(
      { command: 'stop', pauseMs, by: 'console' },
      this.options.hub.folder,
    );
    return ok(res, {
      servers: reports.length,
      cancelled: reports.reduce((n, r) => n + r.cancelled, 0),
      pausedUntil: Math.max(0, ...reports.map((r) => r.pausedUntil)),
    });
  }

  private async resume(res: ServerResponse): Promise<true> {
    const { reports } = await stopOrResume({ command: 'resume' }, this.options.hub.folder);
    return ok(res, { servers: reports.length });
  }
}

/** The most a page may leave unread before its stream is ended. */
const MAX_UNREAD = 16 * 1024 * 1024;

function ok(res: ServerResponse, body: unknown): true {
  res.writeHead(200, { 'content-type': 'application/json', ...PAGE_HEADERS });
  res.end(JSON.stringify(body));
  return true;
}

function refuse(res: ServerResponse, status: number, message: string): true {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS });
  res.end(`${message}\n`);
  return true;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
