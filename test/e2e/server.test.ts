/** The server as a client sees it: the catalog, toolset selection, bad input, a dying helper, shutdown. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, inject, test } from 'vitest';
import { alive, gone } from '../../scripts/process-group.js';
import { CLI, startMacpilot, useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';

const env = inject('desktopEnv');

describe('catalog', () => {
  const { macpilot } = useMacpilot(env);

  test('every tool has a title, a description and all four annotations', async () => {
    const { tools } = await macpilot.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['snapshot_ui', 'click_element', 'list_apps', 'quit_app', 'check_permissions']),
    );
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
      }
    }
    const quit = tools.find((t) => t.name === 'quit_app');
    expect(quit?.annotations?.destructiveHint).toBe(true);
    expect(tools.find((t) => t.name === 'snapshot_ui')?.annotations?.readOnlyHint).toBe(true);
  });

  test('check_permissions reports the accessibility bus and the display of this desktop', async () => {
    const text = await macpilot.ok('check_permissions');
    expect(text).toContain('Platform: linux');
    expect(text).toMatch(/- accessibility: available/);
    expect(text).toMatch(/- display: available/);
    // Of the platform services, the default toolsets need only OCR (the screen toolset's read_text) on Linux.
    const services = text.slice(text.indexOf('Services of the enabled toolsets:'));
    expect(services.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^- OCR: available \(tesseract\.js/),
    ]);
  });

  test('bad input gets a clear isError result and the server keeps serving', async () => {
    const unknownRef = await macpilot.call('get_element', { ref: 'e99999' });
    expect(unknownRef.isError).toBe(true);
    expect(unknownRef.text).toMatch(/e99999/);
    expect(unknownRef.text).toMatch(/snapshot_ui|find_elements/);

    const badRef = await macpilot.call('get_element', { ref: 'button-1' });
    expect(badRef.isError).toBe(true);
    expect(badRef.text).toContain('a ref looks like "e12"');

    const both = await macpilot.call('get_element', { ref: 'e1', path: 'app("x")' });
    expect(both.isError).toBe(true);
    expect(both.text).toContain('exactly one of "ref"');

    const malformed = await macpilot.call('get_element', { path: 'app("mousepad"/window[' });
    expect(malformed.isError).toBe(true);
    expect(malformed.text).toMatch(/path/i);

    const notRunning = await macpilot.call('snapshot_ui', { app: 'no-such-app-here' });
    expect(notRunning.isError).toBe(true);
    expect(notRunning.text).toContain('no-such-app-here');

    // An argument far over its limit (and over the SDK's own 10 MiB for a message) is refused with the limit.
    const huge = await macpilot.call('set_clipboard', { text: 'x'.repeat(12_000_000) });
    expect(huge.isError).toBe(true);
    expect(huge.text).toContain('<=10000000 characters');

    expect((await macpilot.call('list_apps')).isError).toBe(false);
  });
});

describe('toolset selection', () => {
  test('--toolsets and MACPILOT_TOOLSETS filter tools/list; session is always there', async () => {
    const byFlag = await startMacpilot(env, ['--toolsets', 'apps']);
    const byEnv = await startMacpilot({ ...env, MACPILOT_TOOLSETS: 'session' });
    try {
      const flagNames = (await byFlag.client.listTools()).tools.map((t) => t.name).sort();
      expect(flagNames).toEqual(
        [
          'activate_app',
          'check_permissions',
          'launch_app',
          'list_apps',
          'quit_app',
          'relaunch_app',
          'session_info',
        ].sort(),
      );
      const envNames = (await byEnv.client.listTools()).tools.map((t) => t.name).sort();
      expect(envNames).toEqual(['check_permissions', 'session_info']);
      // A macOS tool called by name on Linux: not the SDK's "not found", but where it is missing.
      const mac = await byFlag.call('run_applescript', { script: 'return 1' });
      expect(mac.isError).toBe(true);
      expect(mac.text).toMatch(/^run_applescript is not available on this platform \(linux\)/);
    } finally {
      await byFlag.close();
      await byEnv.close();
    }
  });
});

describe('the helper', () => {
  test('killed mid-call: the call fails clearly, the next call gets a new helper', async () => {
    const macpilot = await startMacpilot(env);
    try {
      const info = await macpilot.ok('session_info');
      const pid = Number(/pid (\d+)/.exec(info)?.[1]);
      expect(pid).toBeGreaterThan(0);
      process.kill(pid, 'SIGSTOP'); // frozen, so the next call is surely in flight when it dies
      // With the helper frozen, all the server writes is the request to it.
      const written = () =>
        Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${macpilot.serverPid()}/io`, 'utf8'))?.[1]);
      const before = written();
      const pending = macpilot.call('list_apps');
      await eventually('the request to reach the helper', async () =>
        written() > before ? true : undefined,
      );
      process.kill(pid, 'SIGKILL');
      const failed = await pending;
      expect(failed.isError).toBe(true);
      expect(failed.text).toContain('the helper was killed by SIGKILL');
      expect(failed.text).toContain('restarts by itself');

      const again = await macpilot.call('list_apps');
      expect(again.isError).toBe(false);
      const newPid = Number(/pid (\d+)/.exec(await macpilot.ok('session_info'))?.[1]);
      expect(newPid).not.toBe(pid);
      expect(alive(newPid)).toBe(true);
    } finally {
      await macpilot.close();
    }
  });
});

describe('shutdown', () => {
  test('a message over 12 MiB ends the server, which says why', async () => {
    const server = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let said = '';
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk;
    });
    const exited = once(server, 'exit');
    try {
      server.stdin.on('error', () => {}); // the server stops reading part way
      server.stdin.write(
        `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'x'.repeat(13 * 1024 * 1024)}"}}\n`,
      );
      const [code] = await exited;
      expect(code).toBe(1);
      expect(said).toContain('a message on stdin was over 12 MiB');
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill();
    }
  });

  test('the server and its helper exit when stdin closes', async () => {
    const server = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const send = (message: object) => server.stdin.write(`${JSON.stringify(message)}\n`);
    let out = '';
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    const answered = (id: number) =>
      eventually(`the answer to request ${id}`, async () =>
        out.split('\n').some((line) => line.includes(`"id":${id}`)) ? true : undefined,
      );
    const exited = once(server, 'exit');
    try {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '0' },
        },
      });
      await answered(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'session_info', arguments: {} } });
      await answered(2);
      const helperPid = Number(/pid (\d+)/.exec(out)?.[1]);
      expect(helperPid).toBeGreaterThan(0);

      server.stdin.end();
      const [code] = await exited;
      expect(code).toBe(0);
      expect(await gone(helperPid, 30_000)).toBe(true);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill();
    }
  });
});
