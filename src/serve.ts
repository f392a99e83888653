/** `macpilot serve`: the MCP server over stdio, or over Streamable HTTP with --http, until its client goes away. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from './config.js';
import { createEngine } from './engine/index.js';
import { HelperClient } from './helper/client.js';
import { createLogger } from './log.js';
import { timedPort } from './mcp/call-log.js';
import { createMcpServer } from './mcp/server.js';
import { AuditLog } from './policy/audit.js';
import { AppPolicy } from './policy/apps.js';
import { ConsentGuard } from './policy/consent.js';
import { ModeGuard } from './policy/mode.js';
import { Policy } from './policy/pipeline.js';
import { RateLimiter } from './policy/rate-limits.js';
import {
  helperCommand,
  platformServiceChecks,
  platformServices,
  platformTextRecognizer,
} from './platforms/index.js';

export async function serve(flags: {
  toolsets?: string;
  http?: boolean;
  port?: string;
  host?: string;
}): Promise<void> {
  const config = loadConfig({ toolsets: flags.toolsets, port: flags.port, host: flags.host });
  const log = createLogger(config.logLevel);
  const helper = new HelperClient({ helper: helperCommand({ helperPath: config.helperPath }), log });
  const apps = new AppPolicy(config);
  const engine = createEngine(
    timedPort(helper),
    { clipboardHistory: config.clipboardHistory, recognizer: platformTextRecognizer() },
    (app) => apps.check(app),
  );
  const policy = new Policy([
    new ModeGuard(config.mode),
    new RateLimiter(config.rateLimits),
    new ConsentGuard(config, engine.kernel),
    new AuditLog({ file: config.auditLog, mode: config.mode, refs: engine.kernel.refs, log }),
  ]);
  const services = platformServices();
  const serviceChecks = platformServiceChecks();
  const newServer = () => createMcpServer({ config, log, helper, engine, policy, services, serviceChecks });
  let stopServing = async (): Promise<void> => {};

  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log.debug(`shutting down: ${why}`);
    const forced = setTimeout(() => process.exit(0), 3000);
    forced.unref();
    await stopServing().catch(() => {});
    await Promise.all([helper.close().catch(() => {}), engine.close().catch(() => {})]);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  if (flags.http) {
    // Loaded only when asked for: the HTTP transport pulls in Node's fetch machinery, which stdio never needs.
    const { serveHttp } = await import('./mcp/http.js');
    const endpoint = await serveHttp({ ...config.http, log, newServer });
    stopServing = endpoint.close;
    process.stderr.write(`macpilot: serving MCP over HTTP at ${endpoint.url}\n`);
    return;
  }
  const server = newServer();
  stopServing = () => server.close();
  process.stdin.once('end', () => void shutdown('stdin closed'));
  process.stdin.once('close', () => void shutdown('stdin closed'));
  await server.connect(new StdioServerTransport());
}
