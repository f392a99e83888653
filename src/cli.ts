#!/usr/bin/env node
/** The `macpilot` command: `macpilot serve` runs the MCP server over stdio, or Streamable HTTP with --http. */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, loadConfig } from './config.js';
import { createEngine } from './engine/index.js';
import { MacpilotError } from './errors.js';
import { HelperClient } from './helper/client.js';
import { createLogger } from './log.js';
import { createMcpServer } from './mcp/server.js';
import { AuditLog } from './policy/audit.js';
import { AppPolicy } from './policy/apps.js';
import { ConsentGuard } from './policy/consent.js';
import { ModeGuard } from './policy/mode.js';
import { Policy } from './policy/pipeline.js';
import { RateLimiter } from './policy/rate-limits.js';
import { helperCommand, installHelper, platformServiceChecks, platformServices } from './platforms/index.js';
import { TOOLSETS } from './toolsets.js';
import { VERSION } from './version.js';

const USAGE = `macpilot ${VERSION}: an MCP server that operates the desktop through its accessibility tree

Usage:
  macpilot serve [--toolsets LIST]   run the MCP server on stdin/stdout
  macpilot serve --http [--port N] [--host H]
                                     run it over Streamable HTTP at http://H:N/mcp (default 127.0.0.1:7420)
  macpilot doctor                    check what this machine allows and how to fix what is missing
  macpilot install-helper            macOS: put the helper app in place now (npm's postinstall does)
  macpilot --version | --help

Options:
  --toolsets LIST   comma-separated toolsets (${TOOLSETS.join(', ')}) or "all"
  --port N          HTTP port (0: any free port); MACPILOT_HTTP_PORT
  --host H          HTTP address to listen on; beyond loopback it needs MACPILOT_HTTP_TOKEN

Environment: MACPILOT_TOOLSETS, MACPILOT_HELPER_PATH, MACPILOT_LOG_LEVEL (debug|info|warn|error|silent),
MACPILOT_HTTP_TOKEN (every HTTP request must carry "Authorization: Bearer <token>"),
MACPILOT_RATE_LIMITS (e.g. "calls_per_second=20,concurrent=8"), MACPILOT_AUDIT_LOG (a file, or "off"),
MACPILOT_MODE (full|safe|read-only), MACPILOT_DENY_APPS and MACPILOT_ALLOW_APPS (comma-separated app names or
bundle ids; MACPILOT_DENY_APPS replaces the default list, "none" empties it), MACPILOT_CONSENT (ask|allow),
MACPILOT_CONFIG (a JSON file; default ~/.config/macpilot/config.json). Flags override the environment, which
overrides the file.
`;

async function serve(flags: {
  toolsets?: string;
  http?: boolean;
  port?: string;
  host?: string;
}): Promise<void> {
  const config = loadConfig({ toolsets: flags.toolsets, port: flags.port, host: flags.host });
  const log = createLogger(config.logLevel);
  const helper = new HelperClient({ helper: helperCommand({ helperPath: config.helperPath }), log });
  const apps = new AppPolicy(config);
  const engine = createEngine(helper, {}, (app) => apps.check(app));
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
    await helper.close().catch(() => {});
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

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      toolsets: { type: 'string' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = positionals[0] ?? 'serve';
  if (values.help || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === 'serve' && positionals.length === 1) {
    await serve({ toolsets: values.toolsets, http: values.http, port: values.port, host: values.host });
    return -1;
  }
  if (command === 'doctor' && positionals.length === 1) {
    const { doctor } = await import('./doctor.js');
    return doctor(loadConfig(), (line) => process.stdout.write(`${line}\n`));
  }
  if (command === 'install-helper' && positionals.length === 1) {
    process.stdout.write(`${await installHelper()}\n`);
    return 0;
  }
  process.stderr.write(`macpilot: unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (
      error instanceof ConfigError ||
      error instanceof MacpilotError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(
        `macpilot: ${error instanceof MacpilotError ? error.render() : (error as Error).message}\n`,
      );
      process.exit(2);
    }
    process.stderr.write(`macpilot: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
