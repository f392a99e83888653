/** A real MCP client (the SDK's Client over stdio) talking to `macpilot serve` from dist/. */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const CLI = fileURLToPath(new URL('../../dist/macpilot.js', import.meta.url));

export interface Macpilot {
  client: Client;
  /** Calls a tool and returns its text; `isError` tells whether it failed. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** Calls a tool that must succeed and returns its text. */
  ok(name: string, args?: Record<string, unknown>): Promise<string>;
  /** What the server wrote to stderr. */
  stderr(): string;
  serverPid(): number | null;
  close(): Promise<void>;
}

export async function startMacpilot(env: Record<string, string>, args: string[] = []): Promise<Macpilot> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...args],
    env: { MACPILOT_LOG_LEVEL: 'info', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'macpilot-e2e', version: '0.0.0' });
  await client.connect(transport);

  const call = async (name: string, toolArgs: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: toolArgs })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
    return { text, isError: result.isError === true };
  };
  return {
    client,
    call,
    ok: async (name, toolArgs) => {
      const { text, isError } = await call(name, toolArgs);
      if (isError) throw new Error(`${name} failed:\n${text}`);
      return text;
    },
    stderr: () => stderr,
    serverPid: () => transport.pid,
    close: () => client.close(),
  };
}
