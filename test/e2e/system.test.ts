/**
 * The system toolset on Linux through a real MCP client: facts checked against /etc and /proc, a notification
 * that really shows (the daemon's popup read back through the accessibility tree), and volume and mute on a real
 * PulseAudio server with a null sink, checked with pactl. The daemons start here, on the test's desktop.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import {
  busNameOwner,
  pactl,
  startNotificationDaemon,
  startPulseAudio,
  withoutAutospawn,
} from '../support/daemons.js';
import { useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';
import { temporaryFolder } from '../support/temp.js';

const clientDir = temporaryFolder('macpilot-pulse-client-');
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
const env = withoutAutospawn(inject('desktopEnv'), clientDir);
const { macpilot, processes } = useMacpilot(env, ['--toolsets', 'all']);

test('tools/list on Linux offers the system and file manager tools and none of the macOS-only ones', async () => {
  const names = (await macpilot.client.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(
    expect.arrayContaining([
      'get_system_info',
      'get_battery_status',
      'send_notification',
      'get_volume',
      'set_volume',
      'get_mute_status',
      'set_mute',
      'reveal_in_finder',
    ]),
  );
  for (const macOnly of [
    'get_selected_files',
    'get_finder_window_path',
    'list_status_bar_items',
    'click_status_bar_item',
    'click_status_bar_menu_item',
    'run_applescript',
    'validate_script',
  ]) {
    expect(names).not.toContain(macOnly);
  }
});

test('get_system_info agrees with /etc/os-release and /proc/meminfo', async () => {
  const info = await macpilot.ok('get_system_info');
  const pretty = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
  const memTotalKiB = Number(/^MemTotal:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]);
  expect(info).toContain(`OS: ${pretty}`);
  expect(info).toContain(`Memory: ${(memTotalKiB / 1024 ** 2).toFixed(1)} GiB`);
  expect(info).toContain(`Kernel: Linux ${os.release()}`);
  expect(info).toContain(`${os.cpus().length} cores`);
});

test('get_battery_status agrees with /sys/class/power_supply', async () => {
  const supplies = '/sys/class/power_supply';
  const batteries = readdirSync(supplies).filter(
    (name) => readFileSync(join(supplies, name, 'type'), 'utf8').trim() === 'Battery',
  );
  const status = await macpilot.ok('get_battery_status');
  if (batteries.length === 0) {
    expect(status).toMatch(/no battery in \/sys\/class\/power_supply: a desktop or virtual machine/);
  } else {
    for (const name of batteries) expect(status).toContain(name);
  }
});

describe('send_notification', () => {
  test('with no notification daemon in the session: an error that says so and how to get one', async () => {
    expect(await busNameOwner(env, 'org.freedesktop.Notifications')).toBeUndefined();
    const out = await macpilot.call('send_notification', { title: 'Nobody listens', message: 'lost' });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/no notification daemon runs in this desktop session/);
    // The suite installs notification-daemon: the advice is to start it, not to install it again.
    expect(out.text).toContain('run `/usr/lib/notification-daemon/notification-daemon &`');
    expect(out.text).not.toContain('apt-get install');
  });

  test('with notification-daemon running, the popup shows the title, subtitle and message', async () => {
    const daemon = await startNotificationDaemon(processes, env);
    const title = `Build ${process.pid} finished`;
    const sent = await macpilot.ok('send_notification', {
      title,
      subtitle: 'macpilot CI',
      message: 'All 12 tests passed & 0 < 1',
      sound: true,
    });
    expect(sent).toMatch(/^Notification delivered to Notification Daemon [\d.]+ \(id \d+\)\.$/);

    // The popup is the daemon's own window; its labels are read back through AT-SPI, not from our request.
    const app = String(daemon);
    const titleLine = await eventually('the popup with the title', async () => {
      const out = await macpilot.call('find_elements', { app, text: title });
      return out.isError ? undefined : out.text;
    });
    expect(titleLine).toContain(`"${title}"`);
    const body = await macpilot.ok('find_elements', { app, text: 'All 12 tests passed' });
    expect(body).toContain('"macpilot CI All 12 tests passed & 0 < 1"');
  });
});

describe('volume and mute', () => {
  test('with no sound server: an error naming where pactl looked', async () => {
    const out = await macpilot.call('get_volume');
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/no PulseAudio or PipeWire server runs for this user/);
    expect(out.text).toContain(join(env.XDG_RUNTIME_DIR ?? '', 'pulse', 'native'));
  });

  test('set_volume and set_mute reach the server: pactl reads back what the tools set', async () => {
    await startPulseAudio(processes, env);

    expect(await macpilot.ok('set_volume', { volume: 37 })).toMatch(/^Volume 37%/);
    expect(await pactl(env, 'get-sink-volume', '@DEFAULT_SINK@')).toMatch(
      /front-left: \d+ \/\s+37% .*front-right: \d+ \/\s+37% /,
    );
    expect(await macpilot.ok('get_volume')).toBe('Volume 37%, not muted on Null Output.');

    expect(await macpilot.ok('set_mute', { muted: true })).toMatch(/^Muted \(was not muted\)/);
    expect((await pactl(env, 'get-sink-mute', '@DEFAULT_SINK@')).trim()).toBe('Mute: yes');
    expect(await macpilot.ok('get_mute_status')).toMatch(/muted on Null Output/);
    expect(await macpilot.ok('get_mute_status')).not.toMatch(/not muted/);

    expect(await macpilot.ok('set_mute', { muted: false })).toMatch(/^Not muted \(was muted\)/);
    expect((await pactl(env, 'get-sink-mute', '@DEFAULT_SINK@')).trim()).toBe('Mute: no');

    // Changed behind macpilot's back: the tools read the server, not a cache.
    await pactl(env, 'set-sink-volume', '@DEFAULT_SINK@', '20%', '40%');
    expect(await macpilot.ok('get_volume')).toMatch(/^Volume 30%/);
  });

  test('volumes outside 0-100 or not whole are refused, and the volume stays', async () => {
    await pactl(env, 'set-sink-volume', '@DEFAULT_SINK@', '55%');
    for (const volume of [150, -1, 3.5]) {
      const out = await macpilot.call('set_volume', { volume });
      expect(out.isError, `set_volume ${volume}`).toBe(true);
      expect(out.text).toMatch(/volume/);
    }
    expect(await pactl(env, 'get-sink-volume', '@DEFAULT_SINK@')).toMatch(/front-left: \d+ \/\s+55% /);
  });
});

test('check_permissions reports the services of the enabled toolsets as they are now', async () => {
  // By now notification-daemon and PulseAudio run (started above); Thunar's D-Bus service file can start it.
  const text = await macpilot.ok('check_permissions');
  expect(text).toMatch(/^Services of the enabled toolsets:$/m);
  expect(text).toMatch(
    /^- notifications: available \(notification-daemon owns org\.freedesktop\.Notifications\)$/m,
  );
  expect(text).toMatch(/^- sound: available \(pulseaudio, output macpilot_null\)$/m);
  expect(text).toMatch(/^- file manager: available \(/m);
});
