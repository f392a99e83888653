/**
 * macosServices() against fake macOS commands: the argv each service hands osascript (values in order, unchanged),
 * recorded stdout turned into service results, and failures turned into errors that say what exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MacpilotError } from '../../../../src/errors.js';
import { parsePmsetBatt } from '../../../../src/platforms/macos/pmset.js';
import { SCRIPTS } from '../../../../src/platforms/macos/scripts.js';
import { macosServices } from '../../../../src/platforms/macos/services.js';
import { releaseName } from '../../../../src/platforms/macos/system-info.js';
import type { BatteryState, BatteryStatus, StatusBarItem } from '../../../../src/services/types.js';
import { type Call, FakeMac, FIXTURES } from '../../../support/fake-macos.js';

const fake = new FakeMac();
const services = macosServices(fake.commands);
const seen: Call[] = [];
afterAll(() => fake.remove());
beforeEach(() => fake.reset());
afterEach(() => {
  seen.push(...fake.calls());
});

/** The values (after "-") of the one osascript call made. */
function values(): string[] {
  const calls = fake.calls().filter((call) => call.command === 'osascript');
  const last = calls.at(-1);
  if (!last) throw new Error('osascript was not called');
  expect(last.argv.slice(0, 3)).toEqual(['-l', 'JavaScript', '-']);
  return last.argv.slice(3);
}

async function rejection(promise: Promise<unknown>): Promise<MacpilotError> {
  const error: unknown = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(MacpilotError);
  return error as MacpilotError;
}

const need = <T>(value: T | undefined): T => {
  if (value === undefined) throw new Error('service missing');
  return value;
};
const systemInfo = need(services.systemInfo);
const notifications = need(services.notifications);
const audio = need(services.audio);
const reveal = need(services.reveal);
const finder = need(services.finder);
const statusBar = need(services.statusBar);
const scripting = need(services.scripting);

describe('system info', () => {
  it('names the release from sw_vers and the model from sysctl', async () => {
    fake.answer('swVers', { stdoutFixture: 'commands/sw_vers.txt' });
    fake.answer('sysctl', { stdoutFixture: 'commands/hw.model.txt' });
    const info = await systemInfo.info();
    expect(info).toMatchObject({ os: 'macOS 14.5 (23F79)', model: 'MacBookPro18,3' });
    expect(info.cpuCores).toBeGreaterThan(0);
    expect(info.memoryBytes).toBeGreaterThan(0);
    const argv = Object.fromEntries(fake.calls().map((call) => [call.command, call.argv]));
    expect(argv).toEqual({ sw_vers: [], sysctl: ['-n', 'hw.model'] });
  });

  it('still answers when sw_vers and sysctl fail', async () => {
    fake.answer('swVers', { exitCode: 1 });
    fake.answer('sysctl', { exitCode: 1 });
    const info = await systemInfo.info();
    expect(info.os).toBe('macOS');
    expect(info).not.toHaveProperty('model');
  });

  it('reads old and new product names', () => {
    expect(releaseName('ProductName:\tMac OS X\nProductVersion:\t10.15.7\nBuildVersion:\t19H15\n')).toBe(
      'Mac OS X 10.15.7 (19H15)',
    );
    expect(
      releaseName(
        'ProductName:\t\tmacOS\nProductVersion:\t\t13.4.1\nProductVersionExtra:\t(a)\nBuildVersion:\t\t22F770820d\n',
      ),
    ).toBe('macOS 13.4.1 (a) (22F770820d)');
    expect(releaseName('')).toBeUndefined();
  });
});

describe('battery (pmset -g batt)', () => {
  const pmset = (name: string) => readFileSync(join(FIXTURES, 'pmset', `${name}.txt`), 'utf8');
  const battery = (percent: number, state: BatteryState, minutesRemaining?: number) => ({
    name: 'InternalBattery-0',
    percent,
    state,
    ...(minutesRemaining === undefined ? {} : { minutesRemaining }),
  });
  const EXPECTED: Record<string, BatteryStatus> = {
    discharging: { hasBattery: true, onExternalPower: false, batteries: [battery(95, 'discharging', 186)] },
    'no-estimate': { hasBattery: true, onExternalPower: false, batteries: [battery(90, 'discharging')] },
    charging: { hasBattery: true, onExternalPower: true, batteries: [battery(91, 'charging', 25)] },
    charged: { hasBattery: true, onExternalPower: true, batteries: [battery(100, 'full')] },
    'ac-attached': { hasBattery: true, onExternalPower: true, batteries: [battery(90, 'not charging')] },
    'finishing-charge': { hasBattery: true, onExternalPower: true, batteries: [battery(99, 'charging', 4)] },
    desktop: {
      hasBattery: false,
      onExternalPower: true,
      reason: 'no battery: a desktop Mac (pmset -g batt lists none)',
    },
    'desktop-ups': {
      hasBattery: true,
      onExternalPower: false,
      batteries: [{ name: 'Back-UPS XS 1500G', percent: 87, state: 'discharging', minutesRemaining: 41 }],
    },
  };

  it('has an expectation for every recorded fixture', () => {
    const files = readdirSync(join(FIXTURES, 'pmset')).map((file) => file.replace(/\.txt$/, ''));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`reads ${name}`, () => expect(parsePmsetBatt(pmset(name))).toEqual(expected));
  }

  it('reads two batteries', () => {
    const two = `${pmset('discharging')} -InternalBattery-1 (id=42)\t40%; discharging; 1:00 remaining present: true\n`;
    const status = parsePmsetBatt(two);
    expect(status.hasBattery && status.batteries.map((b) => [b.name, b.percent])).toEqual([
      ['InternalBattery-0', 95],
      ['InternalBattery-1', 40],
    ]);
  });

  it('runs pmset -g batt', async () => {
    fake.answer('pmset', { stdoutFixture: 'pmset/desktop.txt' });
    const status = await systemInfo.battery();
    expect(status).toMatchObject({ hasBattery: false, reason: expect.stringContaining('a desktop Mac') });
    expect(fake.lastCall()).toMatchObject({ command: 'pmset', argv: ['-g', 'batt'] });
  });
});

describe('notifications', () => {
  beforeEach(() => fake.answer('osascript', { stdoutFixture: 'stdout/notify.txt' }));

  it('hands message, title, subtitle and sound in that order, unchanged', async () => {
    const message = 'Build "done"\n$(rm -rf ~) `x` -e';
    const receipt = await notifications.send({ title: '-e', message, subtitle: "it's", sound: 'Ping' });
    expect(receipt.server).toMatch(
      /^Notification Center, as Script Editor .*System Settings > Notifications/,
    );
    expect(values()).toEqual([message, '-e', "it's", 'Ping']);
    expect(fake.lastCall().stdin).toBe(SCRIPTS.notify.source);
  });

  it('plays Glass for sound: true and nothing otherwise', async () => {
    await notifications.send({ title: 't', message: 'm', sound: true });
    expect(values()).toEqual(['m', 't', '', 'Glass']);
    await notifications.send({ title: 't', message: 'm', sound: false });
    expect(values()).toEqual(['m', 't', '', '']);
    await notifications.send({ title: 't', message: '' });
    expect(values()).toEqual(['', 't', '', '']);
  });
});

describe('audio', () => {
  it('reads the volume and mute', async () => {
    fake.answer('osascript', { stdoutFixture: 'stdout/audio-44.txt' });
    await expect(audio.get()).resolves.toEqual({ volume: 44, muted: false });
    expect(values()).toEqual(['get']);
  });

  it('sets the volume and the mute, answering the state read back', async () => {
    fake.answer('osascript', { stdoutFixture: 'stdout/audio-44.txt' });
    await expect(audio.setVolume(44)).resolves.toEqual({ volume: 44, muted: false });
    expect(values()).toEqual(['volume', '44']);
    await audio.setMuted(true);
    expect(values()).toEqual(['muted', 'true']);
    await audio.setMuted(false);
    expect(values()).toEqual(['muted', 'false']);
  });

  it('reports null for a device without volume control, and refuses to set it', async () => {
    fake.answer('osascript', { stdoutFixture: 'stdout/audio-no-volume-control.txt' });
    await expect(audio.get()).resolves.toEqual({ volume: null, muted: false });
    const error = await rejection(audio.setVolume(20));
    expect(error.what).toBe('Could not set the volume to 20%');
    expect(error.why).toContain('no volume control');
  });
});

describe('Finder', () => {
  it('reveals the path given, unchanged', async () => {
    fake.answer('osascript', { stdoutFixture: 'stdout/reveal.txt' });
    const path = '/Users/me/odd name "with" quotes\nand `ticks` $(x)';
    await expect(reveal.reveal(path)).resolves.toEqual({ fileManager: 'Finder' });
    expect(values()).toEqual([path]);
  });

  it('maps a refusal to send Apple events to Finder', async () => {
    fake.answer('osascript', {
      stderr: '394:406: execution error: Not authorised to send Apple events to Finder. (-1743)\n',
      exitCode: 1,
    });
    const error = await rejection(reveal.reveal('/tmp'));
    expect(error.what).toBe('Revealing the item in Finder: not allowed to control Finder');
    expect(error.next).toContain('Automation');
  });

  it('reads the selection as POSIX paths', async () => {
    fake.answer('osascript', { stdoutFixture: 'stdout/finder-selection.txt' });
    await expect(finder.selectedFiles()).resolves.toEqual([
      '/Users/me/Documents/report.pdf',
      '/Users/me/Documents/Résumé #2.pages',
      '/Users/me/Desktop/folder',
    ]);
    expect(values()).toEqual([]);
  });

  it("reads the front window's folder, null without a window, and says when it shows no folder", async () => {
    fake.answer('osascript', { stdoutFixture: 'stdout/finder-window.txt' });
    await expect(finder.frontWindowPath()).resolves.toBe('/Users/me/Documents');
    fake.answer('osascript', { stdoutFixture: 'stdout/finder-no-window.txt' });
    await expect(finder.frontWindowPath()).resolves.toBeNull();
    fake.answer('osascript', { stdoutFixture: 'stdout/finder-window-recents.txt' });
    const error = await rejection(finder.frontWindowPath());
    expect(error.what).toBe('The front Finder window shows no folder');
  });
});

describe('status bar', () => {
  beforeEach(() => fake.answer('osascript', { stdoutFixture: 'stdout/status-list.txt' }));

  it('lists the extras left to right, named by description, else title, else name', async () => {
    const items = await statusBar.list();
    expect(items.map((item) => [item.position, item.process, item.description])).toEqual([
      [0, 'Dropbox', 'Dropbox'],
      [1, 'Rectangle', 'Rectangle'],
      [2, 'ControlCenter', 'Battery'],
      [3, 'ControlCenter', 'Wi‑Fi'],
      [4, 'ControlCenter', 'Clock'],
    ]);
    expect(items[3]?.bounds).toEqual({ x: 1290, y: 0, width: 30, height: 24 });
    expect(values()).toEqual(['list']);
  });

  const wifi = async (): Promise<StatusBarItem> => {
    const item = (await statusBar.list()).find((entry) => entry.description === 'Wi‑Fi');
    if (!item) throw new Error('no Wi-Fi in the fixture');
    fake.reset();
    return item;
  };

  it('finds the item again and clicks it by process id, menu bar and index', async () => {
    const item = await wifi();
    // The list is read again first: the click script then answers its own JSON.
    await statusBar.click(item);
    const calls = fake.calls().map((call) => call.argv.slice(3));
    expect(calls).toEqual([['list'], ['click', '512', '0', '1']]);
  });

  const listThen = (answer: string) =>
    fake.answer(
      'osascript',
      { stdoutFixture: 'stdout/status-list.txt' },
      { stdoutFixture: `stdout/${answer}.txt` },
    );

  it('lists the items of a menu level, handing the names unchanged', async () => {
    const item = await wifi();
    listThen('status-items');
    const path = ['Other "Networks"', '-e', '$(x)'];
    await expect(statusBar.menuItems(item, path)).resolves.toEqual([
      'Turn Wi-Fi Off',
      'Other Networks',
      'Wi-Fi Settings…',
    ]);
    expect(values()).toEqual(['items', '512', '0', '1', ...path]);
  });

  it('clicks the menu item at a path', async () => {
    const item = await wifi();
    listThen('status-clicked');
    await statusBar.clickMenuItem(item, ['Turn Wi-Fi Off']);
    expect(values()).toEqual(['pick', '512', '0', '1', 'Turn Wi-Fi Off']);
  });

  it('says what the menu has when a name is missing', async () => {
    const item = await wifi();
    listThen('status-missing');
    const error = await rejection(statusBar.clickMenuItem(item, ['Turn Wi-Fi On']));
    expect(error.what).toBe('No menu item "Turn Wi-Fi On" in the menu of "Wi‑Fi" (ControlCenter)');
    expect(error.why).toBe('that menu has: Turn Wi-Fi Off, Other Networks, Wi-Fi Settings…');
  });

  it('says when the menu did not open, or a name has no submenu', async () => {
    const item = await wifi();
    listThen('status-empty');
    expect((await rejection(statusBar.menuItems(item, []))).what).toBe(
      'The menu of "Wi‑Fi" (ControlCenter) did not open',
    );
    listThen('status-not-submenu');
    expect((await rejection(statusBar.menuItems(item, ['Turn Wi-Fi Off', 'x']))).what).toBe(
      '"Turn Wi-Fi Off" in the menu of "Wi‑Fi" (ControlCenter) has no submenu',
    );
  });

  it('refuses an empty path for clickMenuItem and an item that is gone', async () => {
    const item = await wifi();
    const empty = await rejection(statusBar.clickMenuItem(item, []));
    expect(empty.what).toBe('No menu item given');
    const gone = await rejection(statusBar.click({ position: 9, process: 'Slack', description: 'Slack' }));
    expect(gone.what).toBe('The menu bar extra "Slack" (Slack) is gone');
    expect(gone.why).toContain('"Wi‑Fi" (ControlCenter)');
  });
});

describe('scripting', () => {
  it('runs JXA and parses a JSON result; logs stay apart', async () => {
    fake.answer('osascript', { stdoutFixture: 'stdout/jxa-user-json.txt', stderr: 'a log line\n' });
    const run = await scripting.run({ script: 'JSON.stringify({})', language: 'jxa', timeoutMs: 5000 });
    expect(run).toMatchObject({
      output: '{"name":"Ada","items":[1,2]}',
      json: { name: 'Ada', items: [1, 2] },
    });
    expect(run.log).toBe('a log line');
    expect(fake.lastCall().argv).toEqual(['-l', 'JavaScript', '-']);
    expect(fake.lastCall().stdin).toBe('JSON.stringify({})');
  });

  it('runs AppleScript without parsing JSON', async () => {
    fake.answer('osascript', { stdout: '{"a":1}\n' });
    const run = await scripting.run({ script: 'return 1', language: 'applescript', timeoutMs: 5000 });
    expect(run.output).toBe('{"a":1}');
    expect(run).not.toHaveProperty('json');
    expect(fake.lastCall().argv).toEqual(['-l', 'AppleScript', '-']);
  });

  it('maps a failing script', async () => {
    fake.answer('osascript', { stderrFixture: 'errors/user-cancelled-128.txt', exitCode: 1 });
    const error = await rejection(scripting.run({ script: 'x', language: 'applescript', timeoutMs: 5000 }));
    expect(error.what).toBe('Running your script: cancelled by the user');
  });

  it('validates with osacompile in a private directory that is removed afterwards', async () => {
    fake.answer('osacompile', {});
    await expect(scripting.validate({ script: 'return 1', language: 'applescript' })).resolves.toEqual({
      valid: true,
    });
    const call = fake.lastCall();
    expect(call.command).toBe('osacompile');
    expect(call.argv.slice(0, 3)).toEqual(['-l', 'AppleScript', '-o']);
    const output = call.argv[3] ?? '';
    expect(output).toMatch(/check\.scpt$/);
    expect(call.argv).toHaveLength(4);
    expect(call.stdin).toBe('return 1');
    expect(call.outputDirMode).toBe(0o700);
    expect(existsSync(dirname(output))).toBe(false);
  });

  it('answers a compile error with its message and line', async () => {
    fake.answer('osacompile', { stderrFixture: 'errors/osacompile-2741.txt', exitCode: 1 });
    await expect(scripting.validate({ script: 'tell', language: 'jxa' })).resolves.toEqual({
      valid: false,
      error: 'Expected end of line, etc. but found identifier. on line 31 (error -2741)',
    });
    expect(fake.lastCall().argv.slice(0, 2)).toEqual(['-l', 'JavaScript']);
  });
});

describe('what the services sent', () => {
  it('was only registered scripts, or the user scripts given above', () => {
    const registered = new Set(Object.values(SCRIPTS).map((script) => script.source));
    const userScripts = new Set(['JSON.stringify({})', 'return 1', 'x']);
    const sent = seen.filter((call) => call.command === 'osascript').map((call) => call.stdin);
    expect(sent.length).toBeGreaterThan(10);
    for (const source of sent) expect(registered.has(source) || userScripts.has(source)).toBe(true);
  });
});
