/**
 * `macpilot serve --http` as HTTP clients see it: the MCP conformance suite, DNS rebinding protection, the bearer
 * token, the body limit, sessions, a real tool call through the SDK's HTTP client, and a clean SIGTERM.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { stopGroup } from '../../scripts/process-group.js';
import { connect, type HttpServer, startHttp } from '../support/http-server.js';
import { Processes } from '../support/processes.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const TOKEN = 'e2e-http-token-0123456789';
const CONFORMANCE = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const EXPECTED_FAILURES = fileURLToPath(new URL('../conformance/expected-failures.yml', import.meta.url));
const SCENARIOS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'dns-rebinding-protection',
  'resources-list',
  'prompts-list',
  'completion-complete',
];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so that Host, Origin and oversized bodies can be whatever the test needs. */
function send(url: string, method: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } },
});

/** One scenario, or (without one) the whole active suite against test/conformance/expected-failures.yml. */
function conformance(url: string, scenario?: string): Promise<{ code: number | null; output: string }> {
  const which = scenario ? ['--scenario', scenario] : ['--expected-failures', EXPECTED_FAILURES];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CONFORMANCE, 'server', '--url', url, ...which], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('without a token, on loopback', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttp(env);
  });
  afterAll(() => stopGroup(server.pid));

  test.each(SCENARIOS)('conformance scenario %s passes', async (scenario) => {
    const { code, output } = await conformance(server.url, scenario);
    expect(code, output).toBe(0);
  });

  test('the whole active conformance suite fails only where it needs its own fixtures', async () => {
    const { code, output } = await conformance(server.url);
    expect(code, output).toBe(0);
    expect(output).toContain('Baseline check passed');
  });

  test('a foreign Origin or Host is refused with 403 before anything runs', async () => {
    const origin = await send(server.url, 'POST', { origin: 'http://evil.example.com' }, INITIALIZE);
    expect(origin.status).toBe(403);
    expect(origin.body).toContain('evil.example.com');
    const host = await send(server.url, 'POST', { host: 'evil.example.com' }, INITIALIZE);
    expect(host.status).toBe(403);
    const local = await send(server.url, 'POST', { origin: 'http://localhost:3000' }, INITIALIZE);
    expect(local.status).toBe(200);
  });

  test('a body over 4 MB gets 413', async () => {
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(5_000_000) },
    });
    expect((await send(server.url, 'POST', {}, huge)).status).toBe(413);
  });

  test('sessions are separate, and DELETE ends one', async () => {
    const first = await connect(server.url);
    const second = await connect(server.url);
    expect(first.transport.sessionId).toBeTruthy();
    expect(second.transport.sessionId).not.toBe(first.transport.sessionId);
    const ended = first.transport.sessionId ?? '';
    await first.transport.terminateSession();
    const after = await send(
      server.url,
      'POST',
      { 'mcp-session-id': ended, 'mcp-protocol-version': '2025-11-25' },
      '{"jsonrpc":"2.0","id":2,"method":"ping"}',
    );
    expect(after.status).toBe(404);
    await second.client.ping();
    await second.client.close();
    await first.client.close();
  });
});

describe('with MACPILOT_HTTP_TOKEN', () => {
  let server: HttpServer;
  const processes = new Processes(env);
  /** One mousepad for the describe: a second one would hand its window to the first and exit. */
  let pid: number;
  beforeAll(async () => {
    server = await startHttp(env, { MACPILOT_HTTP_TOKEN: TOKEN });
    pid = processes.start('mousepad').pid;
  });
  afterAll(async () => {
    await stopGroup(server.pid);
    await processes.stopAll();
  });

  test('a request without the token, or with a wrong one, gets 401 and a WWW-Authenticate header', async () => {
    const none = await send(server.url, 'POST', {}, INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await send(server.url, 'POST', { authorization: `Bearer ${TOKEN}x` }, INITIALIZE);
    expect(wrong.status).toBe(401);
    await expect(connect(server.url)).rejects.toThrow();
  });

  test('with the token, list_apps through the SDK HTTP client shows a running app', async () => {
    const { client } = await connect(server.url, TOKEN);
    await eventually(`list_apps showing mousepad (pid ${pid})`, async () => {
      const result = (await client.callTool({ name: 'list_apps', arguments: {} })) as CallToolResult;
      expect(result.isError).not.toBe(true);
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return text.includes(`mousepad (pid ${pid})`) ? true : undefined;
    });
    await client.close();
  });

  test('the console beside /mcp opens with the token, not with a wrong key, and streams what this server does', async () => {
    const origin = new URL(server.url).origin;
    const wrong = await fetch(`${origin}/console/open?key=${TOKEN}x`, { redirect: 'manual' });
    expect(wrong.status).toBe(403);
    const opened = await fetch(`${origin}/console/open?key=${TOKEN}`, { redirect: 'manual' });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('<meta http-equiv="refresh" content="0;url=/console/">');
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^macpilot_console=/);
    const events = await fetch(`${origin}/console/events`, { headers: { cookie } });
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const { client } = await connect(server.url, TOKEN);
    await client.callTool({ name: 'get_clipboard', arguments: {} });
    while (!/"type":"ended"[^\n]*"tool":"get_clipboard"/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    await client.close();
    expect(text).toContain(`"pid":${server.pid}`);
    expect(text).toMatch(
      /"type":"ended","call":"\d+-\d+","session":"macpilot-e2e-http #\d+","tool":"get_clipboard"/,
    );
  });

  test('listening beyond loopback, it serves no console', async () => {
    const wide = await startHttp(env, { MACPILOT_HTTP_TOKEN: TOKEN, MACPILOT_HTTP_HOST: '0.0.0.0' });
    try {
      const port = new URL(wide.url).port;
      const opened = await fetch(`http://127.0.0.1:${port}/console/open?key=${TOKEN}`, {
        redirect: 'manual',
      });
      expect(opened.status).toBe(404);
      expect(opened.headers.get('set-cookie')).toBeNull();
    } finally {
      await stopGroup(wide.pid);
    }
  });

  test("typing in a session that ends stops between two keys; another session's input is served at once", async () => {
    const typist = await connect(server.url, TOKEN);
    const reader = await connect(server.url, TOKEN);
    const call = async (client: Client, name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      expect(result.isError, `${name}: ${text}`).not.toBe(true);
      return text;
    };
    const editorOf = (client: Client) =>
      eventually("mousepad's editor", async () =>
        refOf(await call(client, 'find_elements', { app: String(pid), role: 'textbox' }), /multiline/),
      );
    const typed = async () => {
      const value = /^value: (.*)$/m.exec(
        await call(reader.client, 'get_element', { ref: readerEditor }),
      )?.[1];
      return value === undefined ? '' : (JSON.parse(value) as string);
    };
    const editor = await editorOf(typist.client);
    const readerEditor = await editorOf(reader.client);
    await call(typist.client, 'focus_element', { ref: editor });
    const text = 'abcdefghijklmnopqrstuvwxyz0123';
    const started = performance.now();
    const typing = typist.client
      .callTool({ name: 'type_text', arguments: { ref: editor, text, delay_ms: 200 } })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await typist.transport.terminateSession();
    const endedAfter = performance.now() - started;
    await typist.client.close();
    await typing;
    const pressStarted = performance.now();
    await call(reader.client, 'press_key', { key: 'End' });
    const pressMs = performance.now() - pressStarted;
    const atEnd = await typed();
    await new Promise((resolve) => setTimeout(resolve, 1000)); // five more keys' worth
    const later = await typed();
    expect(later).toBe(atEnd);
    expect(text.startsWith(later), later).toBe(true);
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThanOrEqual(Math.ceil(endedAfter / 200) + 1);
    expect(pressMs).toBeLessThan(1000);
    await reader.client.close();
  });

  test('SIGTERM ends the server cleanly', async () => {
    process.kill(server.pid, 'SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
