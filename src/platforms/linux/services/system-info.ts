/**
 * System facts and batteries on Linux: Node's os module, /etc/os-release, DMI in /sys (absent in containers),
 * /proc/cpuinfo, and the power supplies in /sys/class/power_supply. Every file is read under `root`, so tests can
 * point it at a fixture tree.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  Battery,
  BatteryState,
  BatteryStatus,
  SystemInfo,
  SystemInfoService,
} from '../../../services/types.js';
import { machineFacts } from '../../../services/machine.js';

async function readText(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return undefined; // missing, or a sysfs attribute the driver cannot answer (ENODATA, EIO)
  }
}

/** PRETTY_NAME of an os-release file ("Debian GNU/Linux 12 (bookworm)"), else NAME and VERSION. */
export function osName(osRelease: string): string | undefined {
  const fields = new Map<string, string>();
  for (const line of osRelease.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (!match?.[1] || match[2] === undefined) continue;
    fields.set(match[1], match[2].replace(/^(["'])(.*)\1$/, '$2').replace(/\\(["'$`\\])/g, '$1'));
  }
  const pretty = fields.get('PRETTY_NAME');
  if (pretty) return pretty;
  const name = fields.get('NAME');
  const version = fields.get('VERSION');
  return name ? [name, version].filter(Boolean).join(' ') : undefined;
}

/** The processor's name in /proc/cpuinfo: "model name" on x86, "Model" or "Hardware" on some ARM boards. */
export function cpuInfoModel(cpuinfo: string): string | undefined {
  for (const key of ['model name', 'Model', 'Hardware', 'cpu model']) {
    const match = new RegExp(`^${key}\\s*:\\s*(.+)$`, 'm').exec(cpuinfo);
    if (match?.[1]) return match[1].trim();
  }
  return undefined;
}

/** Firmware fill-ins that name no machine. */
const PLACEHOLDER =
  /^(to be filled by o\.e\.m\.|default string|system (manufacturer|product name)|not specified|none|o\.e\.m\.?)$/i;

/** "LENOVO ThinkPad X1 Carbon Gen 9" from DMI's vendor and product, when the firmware names them. */
export function dmiModel(vendor: string | undefined, product: string | undefined): string | undefined {
  const named = (value: string | undefined) => (value && !PLACEHOLDER.test(value) ? value : undefined);
  const v = named(vendor);
  const p = named(product);
  if (!p) return undefined;
  return v && !p.toLowerCase().startsWith(v.toLowerCase()) ? `${v} ${p}` : p;
}

const STATES: Record<string, BatteryState> = {
  charging: 'charging',
  discharging: 'discharging',
  full: 'full',
  'not charging': 'not charging',
};

/** The attributes of one power supply directory that it has. */
async function attributes(dir: string, names: string[]): Promise<Map<string, string>> {
  const values = await Promise.all(
    names.map(async (name) => [name, await readText(join(dir, name))] as const),
  );
  return new Map(values.filter((entry): entry is readonly [string, string] => entry[1] !== undefined));
}

const BATTERY_FILES = [
  'present',
  'scope',
  'status',
  'capacity',
  'energy_now',
  'energy_full',
  'power_now',
  'charge_now',
  'charge_full',
  'current_now',
  'time_to_empty_now',
  'time_to_full_now',
];

/** A battery's state from its sysfs attributes (values in µWh, µW, µAh, µA, seconds, as the kernel gives them). */
export function batteryFrom(name: string, attrs: Map<string, string>): Battery {
  const num = (key: string) => {
    const value = Number(attrs.get(key));
    return attrs.has(key) && Number.isFinite(value) ? value : undefined;
  };
  const state = STATES[(attrs.get('status') ?? '').toLowerCase()] ?? 'unknown';
  const now = num('energy_now') ?? num('charge_now');
  const full = num('energy_full') ?? num('charge_full');
  const rate = Math.abs(num('power_now') ?? num('current_now') ?? 0);
  const capacity = num('capacity');
  const percent =
    capacity ?? (now !== undefined && full ? Math.min(100, Math.round((now / full) * 100)) : undefined);

  let minutes: number | undefined;
  const seconds = state === 'charging' ? num('time_to_full_now') : num('time_to_empty_now');
  if ((state === 'charging' || state === 'discharging') && seconds) minutes = Math.round(seconds / 60);
  else if (state === 'discharging' && now !== undefined && rate > 0) minutes = Math.round((now / rate) * 60);
  else if (state === 'charging' && now !== undefined && full && rate > 0)
    minutes = Math.round((Math.max(0, full - now) / rate) * 60);

  return {
    name,
    ...(percent === undefined ? {} : { percent }),
    state,
    ...(minutes === undefined ? {} : { minutesRemaining: minutes }),
  };
}

export function linuxSystemInfo(root = '/'): SystemInfoService {
  const at = (path: string) => join(root, path);
  return {
    async info(): Promise<SystemInfo> {
      const [osRelease, vendor, product] = await Promise.all([
        readText(at('etc/os-release')).then((text) => text ?? readText(at('usr/lib/os-release'))),
        readText(at('sys/class/dmi/id/sys_vendor')),
        readText(at('sys/class/dmi/id/product_name')),
      ]);
      const model = dmiModel(vendor, product);
      return {
        os: (osRelease && osName(osRelease)) ?? 'Linux',
        ...(model ? { model } : {}),
        ...(await machineFacts(async () => cpuInfoModel((await readText(at('proc/cpuinfo'))) ?? ''))),
      };
    },

    async battery(): Promise<BatteryStatus> {
      const supplies = at('sys/class/power_supply');
      const names = (await readdir(supplies).catch(() => [])).sort();
      const batteries: Battery[] = [];
      const mains: boolean[] = [];
      for (const name of names) {
        const dir = join(supplies, name);
        const type = await readText(join(dir, 'type'));
        if (type === 'Battery') {
          const attrs = await attributes(dir, BATTERY_FILES);
          // A mouse's or headset's battery (scope Device) says nothing about the machine's power.
          if (attrs.get('scope') === 'Device' || attrs.get('present') === '0') continue;
          batteries.push(batteryFrom(name, attrs));
        } else if (type === 'Mains' || type?.startsWith('USB')) {
          const online = await readText(join(dir, 'online'));
          if (online !== undefined) mains.push(online === '1');
        }
      }
      const power = mains.length > 0 ? { onExternalPower: mains.includes(true) } : {};
      if (batteries.length === 0) {
        return {
          hasBattery: false,
          reason: `no battery in ${supplies}: a desktop or virtual machine`,
          ...power,
        };
      }
      return { hasBattery: true, batteries, ...power };
    },
  };
}
