import { describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ConfigError, DEFAULT_HTTP_PORT, loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/log.js';
import { hasBearer, rebindingRefusal, serveHttp } from '../../../src/mcp/http.js';
import { temporaryFolder } from '../../support/temp.js';

const emptyHome = temporaryFolder('macpilot-home-');
const TOKEN = 'a-token-of-enough-length';

describe('HTTP settings', () => {
  test('default: loopback on the fixed port, no token', () => {
    expect(loadConfig({}, {}, emptyHome).http()).toEqual({ host: '127.0.0.1', port: DEFAULT_HTTP_PORT });
  });

  test('flags override the environment', () => {
    const env = { MACPILOT_HTTP_PORT: '9000', MACPILOT_HTTP_HOST: 'localhost' };
    expect(loadConfig({ port: '0' }, env, emptyHome).http()).toMatchObject({ host: 'localhost', port: 0 });
  });

  test('a port outside 0-65535 or not a number is refused, naming the setting', () => {
    for (const port of ['65536', '-1', '80x', '']) {
      expect(() => loadConfig({ port }, {}, emptyHome).http()).toThrow(/--port: ".*" is not a port/);
    }
  });

  test('a host that is neither an IP address nor a host name is refused', () => {
    expect(() => loadConfig({ host: 'bad host' }, {}, emptyHome).http()).toThrow(ConfigError);
    // An IPv6 address in a URL's brackets, as the URL macpilot prints has it.
    expect(loadConfig({ host: '[::1]' }, {}, emptyHome).http()).toMatchObject({ host: '::1' });
    expect(() => loadConfig({ host: '[example.org]' }, {}, emptyHome).http()).toThrow(ConfigError);
    expect(() => loadConfig({ host: 'http://x' }, {}, emptyHome).http()).toThrow(
      /not an IP address or a host name/,
    );
  });

  test('a token of spaces alone is refused, never taken for no token (which serves loopback without one)', () => {
    const spaces = ' '.repeat(20);
    expect(() => loadConfig({}, { MACPILOT_HTTP_TOKEN: spaces }, emptyHome).http()).toThrow(
      /MACPILOT_HTTP_TOKEN: holds only spaces/,
    );
    expect(() => loadConfig({}, { MACPILOT_HTTP_TOKEN: ` ${TOKEN}` }, emptyHome).http()).toThrow(
      /must not begin or end with a space/,
    );
    // Set to nothing, the variable is unset, as every variable is.
    expect(loadConfig({}, { MACPILOT_HTTP_TOKEN: '' }, emptyHome).http().token).toBeUndefined();
  });

  test('listening beyond loopback needs a token; a short token is refused', () => {
    expect(() => loadConfig({ host: '0.0.0.0' }, {}, emptyHome).http()).toThrow(
      /give a token .*: set MACPILOT_HTTP_TOKEN=SECRET where macpilot is started, or "httpToken": "SECRET" in /,
    );
    expect(loadConfig({ host: '0.0.0.0' }, { MACPILOT_HTTP_TOKEN: TOKEN }, emptyHome).http().token).toBe(
      TOKEN,
    );
    expect(() => loadConfig({}, { MACPILOT_HTTP_TOKEN: 'short' }, emptyHome).http()).toThrow(/at least 16/);
  });

  test('checked only when serving HTTP: a wrong HTTP setting stops no other command', () => {
    const env = { MACPILOT_HTTP_HOST: '0.0.0.0', MACPILOT_HTTP_PORT: 'eighty' };
    const config = loadConfig({}, env, emptyHome);
    expect(config.mode).toBe('full');
    expect(() => config.http()).toThrow(/MACPILOT_HTTP_PORT: "eighty" is not a port/);
  });
});

describe('rebindingRefusal', () => {
  test('bound to loopback: only loopback Host and Origin names pass', () => {
    expect(rebindingRefusal({ host: '127.0.0.1:7420' }, '127.0.0.1')).toBeUndefined();
    expect(
      rebindingRefusal({ host: 'localhost:7420', origin: 'http://localhost:3000' }, '127.0.0.1'),
    ).toBeUndefined();
    expect(rebindingRefusal({ host: '[::1]:7420' }, '::1')).toBeUndefined();
    expect(rebindingRefusal({ host: 'evil.example.com' }, '127.0.0.1')).toMatch(/Host "evil.example.com"/);
    expect(rebindingRefusal({ host: '127.0.0.1', origin: 'http://evil.example.com' }, '127.0.0.1')).toMatch(
      /Origin/,
    );
    expect(rebindingRefusal({ host: '127.0.0.1', origin: 'null' }, '127.0.0.1')).toMatch(/Origin/);
    expect(rebindingRefusal({}, '127.0.0.1')).toMatch(/Host header/);
  });

  test('bound to an address: that address and loopback pass; on all interfaces an Origin must match the Host', () => {
    expect(rebindingRefusal({ host: '192.168.1.5:7420' }, '192.168.1.5')).toBeUndefined();
    expect(rebindingRefusal({ host: 'evil.example.com' }, '192.168.1.5')).toMatch(/Host/);
    expect(rebindingRefusal({ host: 'box.lan:7420' }, '0.0.0.0')).toBeUndefined();
    expect(rebindingRefusal({ host: 'box.lan', origin: 'http://box.lan:8080' }, '0.0.0.0')).toBeUndefined();
    expect(rebindingRefusal({ host: 'box.lan', origin: 'http://evil.example.com' }, '0.0.0.0')).toMatch(
      /Origin/,
    );
  });
});

describe('hasBearer', () => {
  test('accepts exactly "Bearer <token>"', () => {
    expect(hasBearer(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasBearer(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasBearer(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(hasBearer(TOKEN, TOKEN)).toBe(false);
    expect(hasBearer(undefined, TOKEN)).toBe(false);
    expect(hasBearer('Bearer ', TOKEN)).toBe(false);
  });
});

describe('serveHttp sessions', () => {
  /** Resolves when the first session's server closes. */
  let firstClosed: Promise<void>;
  const start = (idleSessionMs?: number) => {
    let servers = 0;
    return serveHttp({
      host: '127.0.0.1',
      port: 0,
      log: createLogger('silent'),
      newServer: () => {
        const server = new McpServer({ name: 'test', version: '0' });
        if (servers++ === 0) {
          firstClosed = new Promise((resolve) => (server.server.onclose = resolve));
        }
        return server;
      },
      idleSessionMs,
    });
  };
  const connect = async (url: string) => {
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(transport);
    return { client, transport };
  };
  const ping = (url: string, session: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      },
      body: '{"jsonrpc":"2.0","id":7,"method":"ping"}',
    });

  test('a session idle past the limit ends: its id then gets 404', async () => {
    const endpoint = await start(300);
    try {
      const { transport } = await connect(endpoint.url);
      const session = transport.sessionId ?? '';
      expect((await ping(endpoint.url, session)).status).toBe(200);
      await firstClosed;
      expect((await ping(endpoint.url, session)).status).toBe(404);
    } finally {
      await endpoint.close();
    }
  });

  test('close() ends the sessions and stops listening', async () => {
    const endpoint = await start();
    const { client } = await connect(endpoint.url);
    await client.ping();
    await endpoint.close();
    await expect(connect(endpoint.url)).rejects.toThrow();
  });
});
