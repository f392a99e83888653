/**
 * `macpilot console` opens its page in a Chromium window of its own, and every server hides that browser from
 * agents as it hides a denied app: not listed, not walked, a click on its window and keys while it is in front
 * refused. (A browser agents may use could run a script in the page through its address bar.) When the console
 * ends, the window ends with it.
 */
import { readdirSync } from 'node:fs';
import { expect, inject, test } from 'vitest';
import { gone } from '../../scripts/process-group.js';
import { CLI, useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually } from '../support/text.js';
import { windowOfPid } from '../support/xwindows.js';
import { execFileSync } from 'node:child_process';

const control = temporaryFolder('macpilot-control-');
const env = { ...inject('desktopEnv'), MACPILOT_CONTROL_DIR: control };
const { macpilot, processes } = useMacpilot(env);

test("the console's own browser window is hidden from agents, its window refuses their clicks and keys, and it ends with the console", async () => {
  const site = processes.start(process.execPath, [CLI, 'console']);
  await eventually('the console link', async () => (/http:\/\/\S+/.test(site.stdout()) ? true : undefined));
  expect(site.stdout()).toContain('a browser window of its own, which agents can neither see nor operate');
  const pid = await eventually('the console browser noted', async () => {
    const note = readdirSync(control).find((name) => /^console-browser-\d+$/.test(name));
    return note === undefined ? undefined : Number(note.slice('console-browser-'.length));
  });
  const window = await eventually("the console browser's window", async () => windowOfPid(env, pid), 45_000);
  await eventually('its page loaded', async () =>
    /macpilot console/.test(execFileSync('xprop', ['-id', window.id, 'WM_NAME'], { env, encoding: 'utf8' }))
      ? true
      : undefined,
  );

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

  await processes.stop(site.pid);
  expect(await gone(pid, 15_000)).toBe(true);
  expect(readdirSync(control).filter((name) => name.startsWith('console-browser-'))).toEqual([]);
}, 120_000);
