/**
 * `macpilot serve --http`: MCP over Streamable HTTP at /mcp. One McpServer per session (they share the helper and
 * the engine through the factory); requests pass the Host and Origin checks (DNS rebinding), then the bearer
 * token when one is set, before the transport reads a byte of the body.
 */
import { MacpilotError } from '../errors.js';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isLoopback } from '../config.js';
import type { Logger } from '../log.js';

export const MCP_PATH = '/mcp';
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const IDLE_SESSION_MS = 30 * 60_000;
const MAX_SESSIONS = 100;

export interface HttpOptions {
  host: string;
  port: number;
  token?: string;
  log: Logger;
  /** A fresh McpServer for each new session. */
  newServer: () => McpServer;
  /** How long a session may go without a request before it ends; 30 minutes by default. */
  idleSessionMs?: number;
  /** Answers the requests of another site on the same server (the console); false: not one of its paths. */
  site?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

export interface HttpEndpoint {
  url: string;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The hostnames (as URL.hostname spells them) a Host or Origin header may name. Undefined: any. */
function allowedHostnames(host: string): string[] | undefined {
  if (isLoopback(host)) return LOOPBACK_NAMES;
  if (host === '0.0.0.0' || host === '::') return undefined;
  return [...LOOPBACK_NAMES, isIP(host) === 6 ? `[${host}]` : host.toLowerCase()];
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/** Why the request's Host or Origin header is refused, or undefined when both are acceptable. */
export function rebindingRefusal(headers: IncomingMessage['headers'], boundHost: string): string | undefined {
  const allowed = allowedHostnames(boundHost);
  const host = headers.host === undefined ? undefined : hostnameOf(`http://${headers.host}`);
  if (host === undefined) return 'missing or malformed Host header';
  if (allowed && !allowed.includes(host)) return `Host "${host}" is not allowed`;
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const originHost = hostnameOf(origin);
  const originAllowed = allowed ?? [...LOOPBACK_NAMES, host];
  if (originHost === undefined || !originAllowed.includes(originHost))
    return `Origin "${origin}" is not allowed`;
  return undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries the token, compared in constant time. */
export function hasBearer(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export async function serveHttp(options: HttpOptions): Promise<HttpEndpoint> {
  const { log } = options;
  const sessions = new Map<string, Session>();

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const server = options.newServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport, lastSeen: Date.now() });
        log.debug(`http session ${id} started (${sessions.size} open)`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined && sessions.delete(transport.sessionId)) {
        log.debug(`http session ${transport.sessionId} ended (${sessions.size} open)`);
      }
    };
    await server.connect(transport);
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH && options.site && (await options.site(req, res))) return;
    if (path !== MCP_PATH) return refuse(res, 404, `not found; the MCP endpoint is ${MCP_PATH}`);
    const rebinding = rebindingRefusal(req.headers, options.host);
    if (rebinding) return refuse(res, 403, rebinding);
    if (options.token !== undefined && !hasBearer(req.headers.authorization, options.token)) {
      return refuse(res, 401, 'missing or wrong bearer token (MACPILOT_HTTP_TOKEN)', {
        'www-authenticate': 'Bearer realm="macpilot"',
      });
    }
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      return refuse(res, 413, `request body over 4 MiB (${MAX_BODY_BYTES} bytes)`);
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session) return refuse(res, 404, 'unknown or expired session; initialize a new one');
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST')
      return refuse(res, 400, 'no Mcp-Session-Id header; initialize with a POST first');
    if (sessions.size >= MAX_SESSIONS) {
      return refuse(
        res,
        503,
        `${MAX_SESSIONS} sessions are open; end one (DELETE) or wait for one to expire`,
      );
    }
    const transport = await openSession();
    await transport.handleRequest(req, res);
    // Not an initialize request: the transport answered with an error and no session began.
    if (transport.sessionId === undefined) await transport.close();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error(`http request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, 'internal error');
      else res.end();
    });
  });

  const idleMs = options.idleSessionMs ?? IDLE_SESSION_MS;
  const sweep = setInterval(
    () => {
      const expired = Date.now() - idleMs;
      for (const session of sessions.values()) {
        if (session.lastSeen < expired) void session.server.close();
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      clearInterval(sweep);
      reject(listenFailure(error, options.host, options.port));
    };
    http.once('error', failed);
    http.listen(options.port, options.host, () => {
      http.off('error', failed);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const urlHost = isIP(options.host) === 6 ? `[${options.host}]` : options.host;

  return {
    url: `http://${urlHost}:${port}${MCP_PATH}`,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((session) => session.server.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Why the server could not listen, in words a person acts on (the port is taken, the address is not this machine's). */
function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  const known: Record<string, [string, string]> = {
    EADDRINUSE: [
      `${where} is already in use by another program`,
      'give another port with --port (0: any free port), or stop what uses it',
    ],
    EADDRNOTAVAIL: [
      `${host} is not an address of this machine`,
      'give one of its addresses with --host (127.0.0.1 by default)',
    ],
    EACCES: [`this user may not listen on ${where}`, 'give a port above 1023 with --port'],
  };
  const [why, next] = known[error.code ?? ''] ?? [error.message, 'check --host and --port'];
  return new MacpilotError({ what: 'Cannot serve HTTP', why, next, kind: 'listen_failed' });
}
