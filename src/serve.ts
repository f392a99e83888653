/** `macpilot serve`: the MCP server over stdio, or over Streamable HTTP with --http, until its client goes away. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isLoopback, loadConfig } from './config.js';
import { listenForControl } from './control.js';
import { MacpilotError } from './errors.js';
import { timedPort } from './mcp/call-log.js';
import { createMcpServer } from './mcp/server.js';
import { createRuntime } from './runtime.js';

export async function serve(flags: {
  toolsets?: string;
  http?: boolean;
  port?: string;
  host?: string;
}): Promise<void> {
  const config = loadConfig({ toolsets: flags.toolsets, port: flags.port, host: flags.host });
  // Checked before anything starts: a wrong address or token is a usage error, not a half-started server.
  const http = flags.http ? config.http() : undefined;
  const runtime = createRuntime(config, timedPort);
  const { log, helper } = runtime;
  let serving = 'MCP over stdio';
  const stopListening = await listenForControl(runtime, log, () => serving).catch((error: unknown) => {
    // A control folder the person named and cannot be used: no server runs beyond the reach of their stop.
    if (process.env.MACPILOT_CONTROL_DIR && error instanceof MacpilotError) throw error;
    log.warn(
      `macpilot stop cannot reach this server: ${error instanceof Error ? error.message : String(error)}`,
    );
    return () => {};
  });
  const newServer = () => createMcpServer(runtime);
  let stopServing = async (): Promise<void> => {};

  let stopping = false;
  /** Exit code 0 when the client went away or the service manager stopped it; 130 after Ctrl-C (the shell's way). */
  const shutdown = async (why: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    log.debug(`shutting down: ${why}`);
    const forced = setTimeout(() => process.exit(code), 3000);
    forced.unref();
    stopListening();
    await stopServing().catch(() => {});
    await Promise.all([helper.close().catch(() => {}), runtime.engine.close().catch(() => {})]);
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown('SIGINT', 130));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  if (http) {
    // Loaded only when asked for: the HTTP transport pulls in Node's fetch machinery, which stdio never needs.
    const [{ serveHttp }, { mountConsole }] = await Promise.all([
      import('./mcp/http.js'),
      import('./console/command.js'),
    ]);
    // The console beside /mcp, on loopback only (its cookie and its plain HTTP are for this machine): the same
    // Host and Origin rules; MACPILOT_HTTP_TOKEN opens it too.
    const consoleSite = isLoopback(http.host)
      ? mountConsole(runtime.engine, http.host, http.token)
      : undefined;
    const endpoint = await serveHttp({
      ...http,
      log,
      newServer,
      ...(consoleSite ? { site: (req, res) => consoleSite.site.handle(req, res) } : {}),
    });
    stopServing = async () => {
      consoleSite?.close();
      await endpoint.close();
    };
    serving = `MCP over HTTP at ${endpoint.url}`;
    const origin = new URL(endpoint.url).origin;
    process.stderr.write(
      `macpilot: serving MCP over HTTP at ${endpoint.url}\n` +
        (consoleSite
          ? `macpilot: the console is at ${origin}${consoleSite.site.oneTimeLink()} (the link works once)\n`
          : 'macpilot: the console is served on loopback only: `macpilot console` on this machine opens it\n'),
    );
    return;
  }
  const server = newServer();
  stopServing = () => server.close();
  // A person who typed `macpilot` at a terminal would otherwise see nothing happen.
  if (process.stdin.isTTY) {
    process.stderr.write(
      'macpilot: serving MCP on stdin/stdout, for an MCP client to start (`macpilot setup` adds it to one); ' +
        '`macpilot --help` lists the commands a person runs. Ctrl-C stops it.\n',
    );
  }
  process.stdin.once('end', () => void shutdown('stdin closed'));
  process.stdin.once('close', () => void shutdown('stdin closed'));
  const transport = new StdioServerTransport(process.stdin, process.stdout, {
    maxBufferSize: STDIO_MESSAGE_BYTES,
  });
  // A longer message makes the transport stop reading: the server ends, saying so, rather than serve on deaf.
  let overflow = false;
  transport.onerror = (error) => {
    overflow ||= /exceeded maximum size/.test(error.message);
  };
  transport.onclose = () => {
    if (!overflow) return;
    process.stderr.write(
      `macpilot: a message on stdin was over ${STDIO_MESSAGE_BYTES / 1024 / 1024} MiB, more than any call may send: the server stops (its client starts it again)\n`,
    );
    void shutdown('a message over the size limit', 1);
  };
  await server.connect(transport);
}

/**
 * The longest message read on stdin (the SDK's default is 10 MiB): above the longest argument in plain text
 * (10,000,000 characters of clipboard text), so that an argument too long is refused by its tool, with its
 * limit. Not much more: the SDK joins a message's chunks anew as each arrives, which costs the square of its size.
 */
const STDIO_MESSAGE_BYTES = 12 * 1024 * 1024;
