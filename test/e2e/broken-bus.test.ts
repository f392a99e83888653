/**
 * A helper whose accessibility bus goes away under a running session. On a desktop of its own (the shared one
 * keeps its bus): the bus daemon that desktop's at-spi-bus-launcher started is stopped. The helper says so and
 * exits; later calls get a fresh helper on the bus the launcher starts again, instead of waiting on a dead
 * connection, and the clipboard and input still work.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Desktop, startDesktop } from '../../scripts/desktop.js';
import { CLI, type Macpilot, startMacpilot } from '../support/mcp.js';

let desktop: Desktop;
let macpilot: Macpilot;

beforeAll(async () => {
  desktop = await startDesktop({ windowManager: false });
  macpilot = await startMacpilot({ ...(desktop.env as Record<string, string>), MACPILOT_CONSENT: 'allow' });
});
afterAll(async () => {
  await macpilot?.close();
  await desktop?.stop();
});

const read = (pid: string, file: string): string => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};
const parentOf = (pid: string): string => /\) \S+ (\d+)/.exec(read(pid, 'stat'))?.[1] ?? '';

/** The accessibility bus daemon of this test's desktop: the child of its at-spi-bus-launcher. */
function accessibilityBusDaemon(): number {
  const ours = `XDG_RUNTIME_DIR=${desktop.runtimeDir}\0`;
  const pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  const launcher = pids.find(
    (p) => read(p, 'cmdline').includes('at-spi-bus-launcher') && read(p, 'environ').includes(ours),
  );
  const daemon = pids.find((p) => launcher !== undefined && parentOf(p) === launcher);
  if (!daemon) throw new Error(`no accessibility bus daemon under launcher ${launcher}`);
  return Number(daemon);
}

const helperPid = async () => /pid (\d+)/.exec(await macpilot.ok('session_info'))?.[1];

test('doctor on a desktop without a window manager says so (this desktop starts none)', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'doctor'], {
    env: desktop.env,
    timeout: 60_000,
  }).catch((error: { stdout: string }) => error);
  expect(stdout).toMatch(/^display: available \(X display \S+ \(no EWMH window manager: /m);
});

test('a helper whose accessibility bus went away is replaced, says why, and the session goes on', async () => {
  await macpilot.ok('list_apps');
  const before = await helperPid();
  process.kill(accessibilityBusDaemon(), 'SIGTERM');

  // A call that reaches the old helper before it noticed fails, saying why (never a wait on the dead bus).
  const listed = await macpilot.call('list_apps');
  if (listed.isError) expect(listed.text).toMatch(/lost its connection to the desktop|accessibility bus/);
  expect(await helperPid()).not.toBe(before);
  // at-spi-bus-launcher starts a new bus daemon: the fresh helper finds it.
  await macpilot.ok('list_apps');
  await macpilot.ok('set_clipboard', { text: 'still here' });
  expect(await macpilot.ok('get_clipboard')).toContain('still here');
  await macpilot.ok('move_mouse', { x: 20, y: 20 });
});
