import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { HelperClient } from '../../../src/helper-client/client.js';
import { startHelperEarly } from '../../../src/helper-client/spawn.js';
import { ClientErrorCode, type HelperError } from '../../../src/helper-client/errors.js';
import { HelperErrorCode } from '../../../src/helper-client/protocol.js';
import { createLogger } from '../../../src/log.js';

const FAKE = fileURLToPath(new URL('../../support/fake-helper.mjs', import.meta.url));
const clients: HelperClient[] = [];

function client(mode: string, options: { requestTimeoutMs?: number; command?: string } = {}) {
  const lines: string[] = [];
  const c = new HelperClient({
    helper: {
      command: options.command ?? process.execPath,
      args: [FAKE],
      env: { ...process.env, FAKE_HELPER_MODE: mode },
    },
    log: createLogger('info', (line) => lines.push(line)),
    requestTimeoutMs: options.requestTimeoutMs,
    initialBackoffMs: 10,
  });
  clients.push(c);
  return { c, lines };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: HelperError) => error,
  );

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe('HelperClient', () => {
  test('starts the helper lazily, once', async () => {
    const { c } = client('ok');
    expect(await c.pid()).toBeUndefined();
    await c.call('apps.list', {});
    const pid = await c.pid();
    expect(pid).toBeGreaterThan(0);
    await c.call('apps.list', {});
    expect(await c.pid()).toBe(pid);
  });

  test('a helper started ahead of the client is the one it uses; one never used ends with the client', async () => {
    const command = {
      command: process.execPath,
      args: [FAKE],
      env: { ...process.env, FAKE_HELPER_MODE: 'ok' },
    };
    const log = createLogger('info', () => {});
    const used = startHelperEarly(command);
    const c = new HelperClient({ helper: command, started: used?.process, log });
    clients.push(c);
    await c.call('apps.list', {});
    expect(await c.pid()).toBe(used?.process.pid);

    const unused = startHelperEarly(command);
    const exited = new Promise((resolve) => unused?.process.once('exit', resolve));
    await new HelperClient({ helper: command, started: unused?.process, log }).close();
    await exited;
    expect(unused?.process.exitCode ?? unused?.process.signalCode).not.toBeNull();

    // One that could not start leaves the client to start its own, which says why.
    const missing = { command: '/nonexistent/helper', args: [] };
    const broken = new HelperClient({ helper: missing, started: startHelperEarly(missing)?.process, log });
    clients.push(broken);
    expect((await failure(broken.call('apps.list', {}))).message).toContain('could not start the helper');
  });

  test('a helper that dies mid-call fails the call at once, and the next call starts a new helper', async () => {
    const { c } = client('die', { requestTimeoutMs: 30_000 });
    const error = await failure(c.call('apps.list', {}));
    expect(error.code).toBe(ClientErrorCode.HelperExited);
    expect(error.message).toMatch(/apps\.list failed: the helper exited with code 3/);
    const hello = await c.hello();
    expect(hello.helperVersion).toBe('fake');
  });

  test('a request that gets no answer times out with a clear error', async () => {
    const { c } = client('hang', { requestTimeoutMs: 200 });
    const error = await failure(c.call('apps.list', {}));
    expect(error.code).toBe(HelperErrorCode.Timeout);
    expect(error.message).toContain('did not answer apps.list within 200 ms');
  });

  test('an aborted MCP request cancels the helper request', async () => {
    const { c } = client('hang');
    await c.hello();
    const controller = new AbortController();
    const pending = failure(c.call('apps.list', {}, { signal: controller.signal }));
    controller.abort();
    expect((await pending).code).toBe(ClientErrorCode.Cancelled);
  });

  test('a helper of another protocol version is refused', async () => {
    const { c } = client('old-version');
    const error = await failure(c.call('apps.list', {}));
    expect(error.code).toBe(ClientErrorCode.VersionMismatch);
    expect(error.message).toContain('reinstall macpilot');
  });

  test('an answer that breaks the protocol is rejected', async () => {
    const { c } = client('bad-result');
    const error = await failure(c.call('apps.list', {}));
    expect(error.code).toBe(ClientErrorCode.BadResponse);
  });

  test("the helper's stderr goes to the log", async () => {
    const { c, lines } = client('ok');
    await c.call('apps.list', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.some((line) => line.includes('helper: listing apps'))).toBe(true);
  });

  test('a helper that cannot be started says so', async () => {
    const { c } = client('ok', { command: '/nonexistent/macpilot-helper' });
    const error = await failure(c.call('apps.list', {}));
    expect(error.code).toBe(ClientErrorCode.HelperExited);
    expect(error.message).toContain('could not start the helper (/nonexistent/macpilot-helper)');
  });

  test('notifications reach their listeners, and every handshake is announced', async () => {
    const { c } = client('ok');
    const ready: string[] = [];
    c.onReady((hello) => ready.push(hello.helperVersion));
    const changed = new Promise((resolve) => c.onNotification('observe.changed', resolve));
    await c.call('observe.start', {});
    expect(await changed).toEqual({ pid: 7, kinds: ['children-changed'], count: 2 });
    expect(ready).toEqual(['fake']);
  });
});
