/** The system, finder, status bar and scripting tools over stand-in services: listing, validation, rendering. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config.js';
import type { Mode } from '../../../src/modes.js';
import { enabledTools } from '../../../src/tools/call.js';
import { ModeGuard } from '../../../src/policy/mode.js';
import type { ToolCall } from '../../../src/policy/pipeline.js';
import type { AudioState, Services, StatusBarItem } from '../../../src/services/types.js';
import { TOOLSET_NAMES } from '../../../src/toolsets.js';
import { allTools } from '../../../src/tools/index.js';
import type { ToolContext } from '../../../src/tools/types.js';
import { failure } from '../engine/failure.js';
import { temporaryFolder } from '../../support/temp.js';

const tool = (name: string) => {
  const found = allTools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

const config = (mode: Mode = 'full') => ({ toolsets: [...TOOLSET_NAMES], mode }) as unknown as Config;

/** Audio that remembers what it was set to. */
function audio(initial: AudioState) {
  let state = { ...initial };
  return {
    get: () => Promise.resolve({ ...state }),
    setVolume: (volume: number) => {
      state = { ...state, volume };
      return Promise.resolve({ ...state });
    },
    setMuted: (muted: boolean) => {
      state = { ...state, muted };
      return Promise.resolve({ ...state });
    },
  };
}

const LINUX_LIKE: Services = {
  systemInfo: {
    info: () =>
      Promise.resolve({
        os: 'Debian GNU/Linux 12 (bookworm)',
        kernel: 'Linux 6.1.0',
        cpu: 'Test CPU',
        cpuCores: 2,
        arch: 'x64',
        memoryBytes: 8 * 1024 ** 3,
        hostname: 'box',
        uptimeSeconds: 3 * 3600 + 120,
      }),
    battery: () => Promise.resolve({ hasBattery: false, reason: 'none in /sys/class/power_supply' }),
  },
  notifications: { send: () => Promise.resolve({ server: 'notification-daemon 3.20.0', id: 7 }) },
  audio: audio({ volume: 50, muted: false, device: 'Null Output' }),
  reveal: { reveal: () => Promise.resolve({ fileManager: 'Thunar' }) },
};

const ITEMS: StatusBarItem[] = [
  { position: 0, process: 'Dropbox', description: 'Dropbox' },
  { position: 1, process: 'ControlCenter', description: 'Wi-Fi' },
  { position: 2, process: 'ControlCenter', description: 'Battery' },
  { position: 3, process: 'Clock', description: '' },
];

/** A status bar whose "Wi-Fi" menu has a lazily built submenu; records what was clicked. */
function statusBar() {
  const clicked: string[] = [];
  const menus: Record<string, string[]> = {
    '': ['Turn Wi-Fi Off', 'Other Networks'],
    'Other Networks': ['Home…'],
  };
  return {
    clicked,
    service: {
      list: () => Promise.resolve(ITEMS),
      click: (item: StatusBarItem) => {
        clicked.push(`#${item.position}`);
        return Promise.resolve();
      },
      menuItems: (_item: StatusBarItem, names: string[]) => Promise.resolve(menus[names.join(' > ')] ?? []),
      clickMenuItem: (item: StatusBarItem, names: string[]) => {
        clicked.push(`#${item.position}: ${names.join(' > ')}`);
        return Promise.resolve();
      },
    },
  };
}

async function run(name: string, args: Record<string, unknown>, services: Services): Promise<string> {
  const definition = tool(name);
  const parsed = definition.input.parse(args) as never;
  const context = { services, signal: new AbortController().signal } as unknown as ToolContext;
  const out = await definition.handle(parsed, context);
  if (typeof out !== 'string') throw new Error('expected text');
  return out;
}

describe('which tools a platform lists', () => {
  const names = (services: Services, mode: Mode = 'full') =>
    enabledTools(config(mode), services).map((t) => t.name);

  it('lists a tool only where its service exists', () => {
    const listed = names(LINUX_LIKE);
    expect(listed).toEqual(
      expect.arrayContaining([
        'get_system_info',
        'get_battery_status',
        'send_notification',
        'get_volume',
        'set_volume',
        'get_mute_status',
        'set_mute',
        'reveal_in_finder',
        'list_menu_items',
      ]),
    );
    for (const absent of [
      'get_selected_files',
      'get_finder_window_path',
      'list_status_bar_items',
      'click_status_bar_item',
      'click_status_bar_menu_item',
      'run_applescript',
      'validate_script',
    ])
      expect(listed).not.toContain(absent);
  });

  it('leaves the scripting toolset out of safe and read-only modes, and refuses a call by name', async () => {
    const withScripts: Services = {
      ...LINUX_LIKE,
      scripting: {
        run: () => Promise.reject(new Error('unused')),
        validate: () => Promise.reject(new Error('unused')),
      },
    };
    expect(names(withScripts, 'full')).toEqual(
      expect.arrayContaining(['run_applescript', 'validate_script']),
    );
    for (const mode of ['safe', 'read-only'] as const) {
      expect(names(withScripts, mode)).not.toContain('run_applescript');
      expect(names(withScripts, mode)).not.toContain('validate_script');
      const call = { tool: tool('validate_script'), args: {} } as unknown as ToolCall;
      const error = await failure(new ModeGuard(mode).admit(call));
      expect(error.what).toBe(`validate_script is not available in ${mode} mode`);
      expect(error.next).toContain('MACPILOT_MODE=full');
    }
    // Safe mode keeps the other writes.
    expect(names(withScripts, 'safe')).toContain('set_volume');
    expect(names(withScripts, 'read-only')).not.toContain('set_volume');
    expect(names(withScripts, 'read-only')).toContain('get_volume');
  });
});

describe('system tools', () => {
  it('renders the machine, and a machine without a battery plainly', async () => {
    const info = await run('get_system_info', {}, LINUX_LIKE);
    expect(info).toContain('OS: Debian GNU/Linux 12 (bookworm)');
    expect(info).toContain('CPU: Test CPU (2 cores, x64)');
    expect(info).toContain('Memory: 8.0 GiB');
    expect(info).toContain('Up: 3 h 2 min');
    expect(await run('get_battery_status', {}, LINUX_LIKE)).toBe(
      'No battery: none in /sys/class/power_supply.',
    );
  });

  it('renders batteries with charge, state and time left', async () => {
    const services: Services = {
      systemInfo: {
        info: () => Promise.reject(new Error('unused')),
        battery: () =>
          Promise.resolve({
            hasBattery: true,
            onExternalPower: false,
            batteries: [{ name: 'BAT0', percent: 81.6, state: 'discharging', minutesRemaining: 185 }],
          }),
      },
    };
    expect(await run('get_battery_status', {}, services)).toBe(
      '- BAT0: 82%, discharging, 3 h 5 min left\nOn external power: no',
    );
  });

  it('sets the volume and says what it was; validates the range', async () => {
    const services = { ...LINUX_LIKE, audio: audio({ volume: 50, muted: true, device: 'Speakers' }) };
    expect(await run('set_volume', { volume: 37 }, services)).toBe(
      'Volume 37% (was 50%). Output is muted: set_mute false to hear it.',
    );
    expect(await run('get_volume', {}, services)).toBe('Volume 37%, muted on Speakers.');
    expect(await run('set_mute', { muted: false }, services)).toBe('Not muted (was muted).');
    expect(await run('get_mute_status', {}, services)).toBe('Volume 37%, not muted on Speakers.');
    for (const volume of [-1, 101, 3.5, '50'])
      expect(tool('set_volume').input.safeParse({ volume }).success, String(volume)).toBe(false);
  });

  it('says when the output has no volume control', async () => {
    const services = { audio: audio({ volume: null, muted: false, device: 'HDMI' }) };
    expect(await run('get_volume', {}, services)).toBe('Volume no volume control, not muted on HDMI.');
  });

  it('delivers a notification and validates its parts', async () => {
    expect(await run('send_notification', { title: 'Build', message: 'done' }, LINUX_LIKE)).toBe(
      'Notification delivered to notification-daemon 3.20.0 (id 7).',
    );
    const input = tool('send_notification').input;
    expect(input.safeParse({ title: '', message: 'x' }).success).toBe(false);
    expect(input.safeParse({ title: 'x', message: 'x', sound: 'Glass' }).success).toBe(true);
    expect(input.safeParse({ title: 'x', message: 'x', sound: '../../etc/passwd' }).success).toBe(false);
    expect(input.safeParse({ title: 'x', message: 'x', sound: true }).success).toBe(true);
  });
});

describe('reveal_in_finder', () => {
  const dir = temporaryFolder('macpilot-reveal-');
  const file = join(dir, 'report 1.txt');
  writeFileSync(file, 'x');

  it('passes the normalized absolute path of something that exists', async () => {
    const seen: string[] = [];
    const services: Services = {
      reveal: {
        reveal: (path) => {
          seen.push(path);
          return Promise.resolve({ fileManager: 'Thunar' });
        },
      },
    };
    expect(await run('reveal_in_finder', { path: `${dir}/sub/../report 1.txt` }, services)).toBe(
      `Thunar shows ${file}.`,
    );
    expect(seen).toEqual([file]);
  });

  it('refuses a missing path naming the closest folder, and a relative one', async () => {
    const missing = await failure(run('reveal_in_finder', { path: `${dir}/nope/deeper.txt` }, LINUX_LIKE));
    expect(missing.what).toBe(`No such file or folder: ${dir}/nope/deeper.txt`);
    expect(missing.why).toContain(`the closest folder that exists is ${dir}`);
    const relative = await failure(run('reveal_in_finder', { path: 'report 1.txt' }, LINUX_LIKE));
    expect(relative.what).toContain('Not an absolute path');
    expect(tool('reveal_in_finder').input.safeParse({ path: '/tmp/a\0b' }).success).toBe(false);
  });
});

describe('status bar tools', () => {
  it('lists the items left to right', async () => {
    const { service } = statusBar();
    const text = await run('list_status_bar_items', {}, { statusBar: service });
    expect(text.split('\n').slice(0, 4)).toEqual([
      '- #0 "Dropbox" (Dropbox)',
      '- #1 "Wi-Fi" (ControlCenter)',
      '- #2 "Battery" (ControlCenter)',
      '- #3 (no description) (Clock)',
    ]);
  });

  it('finds an item by description, process, position or part of a description', async () => {
    for (const [wanted, position] of [
      ['wi-fi', 1],
      ['Dropbox', 0],
      ['#3', 3],
      ['2', 2],
      ['Clock', 3],
      ['batt', 2],
    ] as const) {
      const { service, clicked } = statusBar();
      await run('click_status_bar_item', { item: wanted }, { statusBar: service });
      expect(clicked, wanted).toEqual([`#${position}`]);
    }
  });

  it('refuses an ambiguous or unknown item, listing what exists', async () => {
    const { service, clicked } = statusBar();
    const several = await failure(
      run('click_status_bar_item', { item: 'ControlCenter' }, { statusBar: service }),
    );
    expect(several.what).toBe('2 status bar items match "ControlCenter"');
    expect(several.why).toContain('- #1 "Wi-Fi" (ControlCenter)');
    const none = await failure(run('click_status_bar_item', { item: 'Bluetooth' }, { statusBar: service }));
    expect(none.what).toBe('No status bar item matches "Bluetooth"');
    expect(none.why).toContain('- #0 "Dropbox" (Dropbox)');
    expect(clicked).toEqual([]);
  });

  it('clicks a menu item by the names the menu shows, level by level', async () => {
    const { service, clicked } = statusBar();
    const text = await run(
      'click_status_bar_menu_item',
      { item: 'Wi-Fi', path: 'other networks > Home...' },
      { statusBar: service },
    );
    expect(clicked).toEqual(['#1: Other Networks > Home…']);
    expect(text).toBe('Clicked Other Networks > Home… in the menu of #1 "Wi-Fi" (ControlCenter).');
    const missing = await failure(
      run(
        'click_status_bar_menu_item',
        { item: 'Wi-Fi', path: 'Turn Bluetooth Off' },
        { statusBar: service },
      ),
    );
    expect(missing.what).toBe('No item "Turn Bluetooth Off" in the menu of #1 "Wi-Fi" (ControlCenter)');
    expect(missing.why).toBe('it has: "Turn Wi-Fi Off", "Other Networks"');
  });
});

describe('scripting tools', () => {
  it('renders a JXA result as JSON with the log, and a compile failure', async () => {
    const services: Services = {
      scripting: {
        run: (request) =>
          Promise.resolve({
            output: '{"a":1}',
            json: { a: 1 },
            log: `ran ${request.language} for ${request.timeoutMs} ms`,
            durationMs: 41.6,
          }),
        validate: () => Promise.resolve({ valid: false, error: 'syntax error at 0:5: Expected end of line' }),
      },
    };
    const out = await run('run_applescript', { script: 'JSON.stringify({a: 1})', language: 'jxa' }, services);
    expect(out).toContain('Result (JSON):\n{\n  "a": 1\n}');
    expect(out).toContain('Log:\nran jxa for 30000 ms');
    expect(out).toContain('(42 ms)');
    expect(await run('validate_script', { script: 'tell foo' }, services)).toBe(
      'The script does not compile: syntax error at 0:5: Expected end of line',
    );
  });

  it('shows the human the script when asking to run it', () => {
    const detail = tool('run_applescript').consentDetail?.({
      script: 'say "hi"',
      language: 'applescript',
    } as never);
    expect(detail).toBe('The AppleScript script:\nsay "hi"');
  });
});
