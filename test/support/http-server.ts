/** `macpilot serve --http` started for a test, and SDK clients on it, each a session of its own. */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI } from './mcp.js';

export interface HttpServer {
  url: string;
  pid: number;
  exited: Promise<number | null>;
}

/** Starts `macpilot serve --http` on a free loopback port; resolves with the URL it prints on stderr. */
export async function startHttp(
  env: Record<string, string>,
  extraEnv: Record<string, string> = {},
): Promise<HttpServer> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0'], {
    env: { ...env, MACPILOT_LOG_LEVEL: 'warn', ...extraEnv },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('could not start macpilot serve --http');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /serving MCP over HTTP at (\S+)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    void exited.then((code) => reject(new Error(`macpilot exited (${code}) before listening:\n${stderr}`)));
  });
  return { url, pid: child.pid, exited };
}

/** An SDK client connected over HTTP: a session of its own. */
export async function connect(
  url: string,
  token?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: 'macpilot-e2e-http', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}
