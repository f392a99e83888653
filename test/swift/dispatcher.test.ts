/**
 * HelperCore's Dispatcher, compiled with a real Swift compiler (npm run test:swift), against the real TypeScript
 * helper client: the dispatcher-probe executable registers a few methods with fixed answers and is spawned as if
 * it were the helper. MACPILOT_SWIFT_PROBE holds the command that runs it (a chroot and the binary's path).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, expect, test } from 'vitest';
import { HelperClient } from '../../src/helper-client/client.js';
import { ClientErrorCode, type HelperError } from '../../src/helper-client/errors.js';
import { createLogger } from '../../src/log.js';

const [command = '', ...args] = (process.env.MACPILOT_SWIFT_PROBE ?? '').split(' ').filter(Boolean);
if (!command) throw new Error('MACPILOT_SWIFT_PROBE is not set: run these tests with `npm run test:swift`');

const clients: HelperClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function probe() {
  const lines: string[] = [];
  const client = new HelperClient({
    helper: { command, args },
    log: createLogger('info', (line) => lines.push(line)),
  });
  clients.push(client);
  return { client, lines };
}

const SNAPSHOT = { root: '1.1', depth: 3, maxNodes: 100, includeHidden: false, maxValueLength: 200 };

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: HelperError) => error,
  );

test('the handshake passes: the client reads the Swift HelloResult with its own schema', async () => {
  const { client } = probe();
  const hello = await client.hello();
  expect(hello).toMatchObject({ helperVersion: 'probe', platform: 'linux' });
  expect(hello.capabilities.accessibility).toEqual({ available: true, detail: 'dispatcher probe' });
});

test('concurrent requests are answered as each is done, not in the order sent', async () => {
  const { client } = probe();
  await client.hello();
  const order: string[] = [];
  const slow = client.call('apps.list', {}).then((result) => (order.push('apps.list'), result));
  const quick = client.call('screen.displays', {}).then((result) => (order.push('screen.displays'), result));
  const [apps, displays] = await Promise.all([slow, quick]);
  expect(order).toEqual(['screen.displays', 'apps.list']);
  expect(apps.apps).toEqual([{ pid: 7, name: 'Slow', id: 'slow', active: false }]);
  expect(displays.displays[0]?.bounds).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
});

test('$/cancelRequest reaches the Swift handler, and the dispatcher goes on answering', async () => {
  const { client, lines } = probe();
  await client.hello();
  const abort = new AbortController();
  const snapshot = failure(client.call('ax.snapshot', SNAPSHOT, { signal: abort.signal }));
  await new Promise((resolve) => setTimeout(resolve, 200));
  abort.abort();
  expect((await snapshot).code).toBe(ClientErrorCode.Cancelled);
  await expect.poll(() => lines.some((line) => line.includes('ax.snapshot cancelled'))).toBe(true);
  expect((await client.call('ax.perform', { id: '1.2', action: 'AXPress' })).performed).toBe('AXPress');
});

test('an answer of 10 MiB arrives whole', async () => {
  const { client } = probe();
  const { text, types } = await client.call('clipboard.read', {});
  expect(text).toHaveLength(10 * 1024 * 1024);
  expect(text?.slice(0, 20)).toBe('0123456789abcdef0123');
  expect(types).toEqual(['text/plain']);
});

test('an unknown method is answered with method not found', async () => {
  const { client } = probe();
  const error = await failure(client.call('windows.list', { includeMinimized: false }));
  expect(error.code).toBe(-32601);
  expect(error.message).toContain('unknown method windows.list');
});

test('params that do not decode, or fail validation, are refused without calling the handler', async () => {
  const { client } = probe();
  const wrongType = await failure(client.call('ax.perform', { id: '1.2', action: 7 } as never));
  expect(wrongType.code).toBe(-32602);
  const invalid = await failure(client.call('ax.perform', { id: '1.2', action: '' }));
  expect(invalid.code).toBe(-32602);
  expect(invalid.message).toContain('action must be 1 to 128 characters');
  expect((await client.call('ax.perform', { id: '1.2', action: 'AXShowMenu' })).performed).toBe('AXShowMenu');
});

test('a request to a probe that dies fails at once with how it ended; the next call starts a new one', async () => {
  const { client } = probe();
  await client.hello();
  const pid = await client.pid();
  const pending = failure(client.call('ax.snapshot', SNAPSHOT));
  process.kill(pid!, 'SIGKILL');
  const error = await pending;
  expect(error.code).toBe(ClientErrorCode.HelperExited);
  expect(error.message).toContain('SIGKILL');
  expect((await client.call('screen.displays', {})).displays).toHaveLength(1);
  expect(await client.pid()).not.toBe(pid);
});

/**
 * The probe with raw pipes, for what the client never sends: writes `input`, waits for `answers` to be on stdout
 * (the probe stops at the end of its input, dropping requests still running), then closes stdin.
 */
async function raw(input: string, answers: string[] = []) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  child.stdin.write(input);
  await expect.poll(() => answers.every((answer) => stdout.includes(answer))).toBe(true);
  child.stdin.end();
  const [code, signal] = await exited;
  return { code, signal, stdout, stderr };
}

test('a malformed frame is reported on stderr and ends the probe, with nothing after it answered', async () => {
  const hello = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'system.hello',
    params: { protocolVersion: 1, client: 'raw' },
  });
  const ended = await raw(`Content-Length: many\r\n\r\n{}Content-Length: ${hello.length}\r\n\r\n${hello}`);
  expect(ended).toMatchObject({ code: 0, signal: null, stdout: '' });
  expect(ended.stderr).toContain('a Content-Length that is not a byte count: many');
});

test('a frame whose body is not JSON-RPC is answered with a parse error, and the next one is answered', async () => {
  const displays = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'screen.displays', params: {} });
  const ended = await raw(
    `Content-Length: 5\r\n\r\nhello` + `Content-Length: ${displays.length}\r\n\r\n${displays}`,
    ['"code":-32700', '"width":1280'],
  );
  expect(ended).toMatchObject({ code: 0, signal: null });
  expect(ended.stdout).toContain('"id":null');
  expect(ended.stdout).toMatch(/"id":2[,}]/);
});

test('stdin closed: the probe exits by itself, with code 0', async () => {
  const ended = await raw('');
  expect(ended).toMatchObject({ code: 0, signal: null, stdout: '' });
  expect(ended.stderr).toContain('the dispatcher stopped');
});
