/**
 * `macpilot console` opens its page in a Chromium window of its own, and every server hides that browser from
 * agents as it hides a denied app: not listed, not walked, a click on its window and keys while it is in front
 * refused. (A browser agents may use could run a script in the page through its address bar.) When the console
 * ends, the window ends with it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { afterAll, expect, inject, test } from 'vitest';
import { gone } from '../../scripts/process-group.js';
import { CLI, useMacpilot } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually } from '../support/text.js';
import { windowOfPid } from '../support/xwindows.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const control = temporaryFolder('macpilot-control-');
const env: Record<string, string> = { ...inject('desktopEnv'), MACPILOT_CONTROL_DIR: control };
const { macpilot } = useMacpilot(env);

/** The consoles the tests start, stopped after them even when a test fails midway. */
const consoles: Processes[] = [];
afterAll(() => Promise.all(consoles.map((started) => started.stopAll())));

/** `macpilot console` started, with its browser's pid and window once its page has loaded. */
async function openConsole(processes: Processes) {
  const site = processes.start(process.execPath, [CLI, 'console']);
  await eventually('the line that says the window opened', async () =>
    site.stdout().includes('a browser window of its own') ? true : undefined,
  );
  expect(site.stdout()).toContain('a browser window of its own, which agents can neither see nor operate');
  // The window has used the one-time link: it is not printed for anyone else to use.
  expect(site.stdout()).not.toMatch(/http:\/\/\S+/);
  const pid = await eventually('the console browser noted', async () => {
    const note = readdirSync(control).find((name) => /^console-browser-\d+$/.test(name));
    return note === undefined ? undefined : Number(note.slice('console-browser-'.length));
  });
  // The one-time link is not on its command line, which every user's `ps` shows.
  expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).not.toContain('key=');
  const window = await eventually("the console browser's window", async () => windowOfPid(env, pid), 45_000);
  // The console's page itself, past the pages that open it ("macpilot console: opening"), and not a refusal.
  await eventually('its page loaded', async () =>
    /"macpilot console"/.test(execFileSync('xprop', ['-id', window.id, 'WM_NAME'], { env, encoding: 'utf8' }))
      ? true
      : undefined,
  );
  return { site, pid, window };
}

/** A full-mode screenshot of the screen, or of an app's window: its answer and its pixels' mean grey level. */
async function screenshotGrey(app: string | undefined): Promise<{ text: string; mean: number }> {
  const result = (await macpilot.client.callTool({
    name: 'take_screenshot',
    arguments: app === undefined ? { black_out_hidden: false } : { app, black_out_hidden: false },
  })) as { content: { type: string; text?: string; data?: string }[] };
  const text = result.content.find((part) => part.type === 'text')?.text ?? '';
  const data = result.content.find((part) => part.type === 'image')?.data ?? '';
  const { channels } = await sharp(Buffer.from(data, 'base64')).greyscale().stats();
  return { text, mean: channels[0]?.mean ?? 0 };
}

async function consoleWindowIsTheirs(consoleEnv: Record<string, string>): Promise<void> {
  const profilesBefore = readdirSync(tmpdir());
  const processes = new Processes(consoleEnv);
  consoles.push(processes);
  const { site, pid, window } = await openConsole(processes);

  const apps = await macpilot.ok('list_apps');
  expect(apps).not.toContain(`pid ${pid}`);
  const walked = await macpilot.call('snapshot_ui', { app: String(pid) });
  expect(walked.isError).toBe(true);
  expect(walked.text).not.toContain('Stop agents');
  expect(await macpilot.ok('list_windows')).not.toContain('macpilot console');

  const { x, y, width, height } = window.frame;
  const clicked = await macpilot.call('click', {
    x: x + Math.round(width / 2),
    y: y + Math.round(height / 2),
  });
  expect(clicked.isError, clicked.text).toBe(true);
  execFileSync('xdotool', ['windowactivate', '--sync', window.id], { env });
  const pressed = await macpilot.call('press_key', { key: 'r' });
  expect(pressed.isError, pressed.text).toBe(true);
  // With the console in front, input at a point beside its window lands there, and is not refused for it.
  expect(x + width).toBeLessThan(1270);
  const beside = await macpilot.call('move_mouse', { x: 1275, y: y + Math.round(height / 2) });
  expect(beside.isError, beside.text).toBe(false);

  // A screenshot paints the console black, but not a window in front of it: that one shows whole.
  const behind = await screenshotGrey(undefined);
  expect(behind.text).toContain("macpilot's console, the person's own, is painted black.");
  const front = processes.start('zenity', [
    '--entry',
    '--title',
    'In front of the console',
    '--text',
    'Shown?',
  ]);
  const dialog = await eventually('the dialog in front', async () => windowOfPid(env, front.pid));
  execFileSync('xdotool', ['windowactivate', '--sync', dialog.id], { env });
  const shown = await screenshotGrey(String(front.pid));
  expect(shown.text).not.toContain('painted black');
  expect(shown.mean).toBeGreaterThan(100);
  await processes.stop(front.pid);

  await processes.stop(site.pid);
  expect(await gone(pid, 15_000)).toBe(true);
  expect(readdirSync(control).filter((name) => name.startsWith('console-browser-'))).toEqual([]);
  // Its profile went with it.
  expect(
    readdirSync(tmpdir()).filter(
      (name) => profilesBefore.indexOf(name) < 0 && name.startsWith('macpilot-console-browser-'),
    ),
  ).toEqual([]);
}

test("the console's own browser window is hidden from agents, its window refuses their clicks and keys, and it ends with the console", async () => {
  await consoleWindowIsTheirs(env);
}, 120_000);

test('the same when the console browser started with accessibility off, so without a tree: its windows are found by the window list', async () => {
  // A person's desktop before any screen reader ran: the switch off, and no QT_ACCESSIBILITY to turn Chromium's
  // tree on anyway.
  const { QT_ACCESSIBILITY: _qt, ...personal } = env;
  setSwitch(env, false);
  try {
    await consoleWindowIsTheirs(personal);
  } finally {
    setSwitch(env, true);
  }
}, 120_000);

test('the person closes the console window: the console ends, and says so, leaving nothing in the control folder', async () => {
  const processes = new Processes(env);
  consoles.push(processes);
  const { site, pid, window } = await openConsole(processes);
  execFileSync('xdotool', ['windowactivate', '--sync', window.id, 'key', '--clearmodifiers', 'ctrl+w'], {
    env,
  });
  expect(await Promise.race([site.exited, sleep(20_000).then(() => 'still running')])).toBe(0);
  expect(site.stdout()).toContain("the console's window was closed: the console ends.");
  expect(await gone(pid, 15_000)).toBe(true);
  expect(readdirSync(control).filter((name) => name.startsWith('console'))).toEqual([]);
}, 120_000);

test('a console that cannot listen says why, and leaves nothing in the control folder', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as AddressInfo).port;
  try {
    const run = spawnSync(process.execPath, [CLI, 'console', '--port', String(port), '--no-open'], {
      env,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`The console cannot listen on 127.0.0.1:${port}`);
    expect(run.stderr).toContain('another program uses that port');
    expect(readdirSync(control).filter((name) => name.startsWith('console'))).toEqual([]);
  } finally {
    taken.close();
  }
});

function setSwitch(desktop: Record<string, string>, on: boolean): void {
  execFileSync(
    'gdbus',
    [
      'call',
      '--session',
      '--dest',
      'org.a11y.Bus',
      '--object-path',
      '/org/a11y/bus',
      '--method',
      'org.freedesktop.DBus.Properties.Set',
      'org.a11y.Status',
      'IsEnabled',
      `<${on}>`,
    ],
    { env: desktop },
  );
}
