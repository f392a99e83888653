/** A real MCP client (the SDK's Client over stdio) talking to `macpilot serve` from dist/. */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { Processes } from './processes.js';
import { eventually } from './text.js';

export const CLI = fileURLToPath(new URL('../../dist/macpilot.js', import.meta.url));

export interface Macpilot {
  client: Client;
  /** Calls a tool and returns its text; `isError` tells whether it failed. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** Calls a tool that must succeed and returns its text. */
  ok(name: string, args?: Record<string, unknown>): Promise<string>;
  serverPid(): number | null;
  close(): Promise<void>;
}

export async function startMacpilot(
  env: Record<string, string>,
  args: string[] = [],
  capabilities: ClientCapabilities = {},
): Promise<Macpilot> {
  const { macpilot, connect } = unconnected(env, args, capabilities);
  await connect();
  return macpilot;
}

/**
 * One macpilot server for the tests of the file (or describe block) that calls it, and the app processes they
 * start or launch; beforeAll connects, afterAll closes the server and stops the processes.
 */
export function useMacpilot(
  env: Record<string, string>,
  args: string[] = [],
  capabilities: ClientCapabilities = {},
) {
  const { macpilot, connect } = unconnected(env, args, capabilities);
  const processes = new Processes(env);
  beforeAll(connect);
  afterAll(async () => {
    await macpilot.close();
    await processes.stopAll();
  });
  /** Launches an app through launch_app and tracks it, to be stopped after the tests; returns its pid. */
  const launch = async (name: string, options: { timeout_ms?: number } = {}): Promise<number> => {
    const launched = await macpilot.ok('launch_app', { name, ...options });
    const pid = Number(/pid (\d+)/.exec(launched)?.[1]);
    expect(pid, launched).toBeGreaterThan(0);
    processes.track(pid);
    return pid;
  };
  /** Starts an app's command and waits until its snapshot shows `shows`; returns its pid. */
  const start = async (command: string, shows: string): Promise<number> => {
    const { pid } = processes.start(command);
    await eventually(`${command} showing "${shows}"`, async () => {
      const out = await macpilot.call('snapshot_ui', { app: String(pid) });
      return !out.isError && out.text.includes(shows) ? true : undefined;
    });
    return pid;
  };
  return { macpilot, processes, launch, start };
}

/** The client and its server, not started until connect(). */
function unconnected(env: Record<string, string>, args: string[], capabilities: ClientCapabilities = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...args],
    env: { MACPILOT_LOG_LEVEL: 'warn', ...env },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'macpilot-e2e', version: '0.0.0' }, { capabilities });

  const call = async (name: string, toolArgs: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: toolArgs })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
    return { text, isError: result.isError === true };
  };
  const macpilot: Macpilot = {
    client,
    call,
    ok: async (name, toolArgs) => {
      const { text, isError } = await call(name, toolArgs);
      if (isError) throw new Error(`${name} failed:\n${text}`);
      return text;
    },
    serverPid: () => transport.pid,
    close: () => client.close(),
  };
  return { macpilot, connect: () => client.connect(transport) };
}
