/** Linux system facts and batteries read from fixture trees of /etc, /proc and /sys. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  cpuInfoModel,
  dmiModel,
  linuxSystemInfo,
  osName,
} from '../../../../../src/platforms/linux/services/system-info.js';

const fixture = (path: string) =>
  fileURLToPath(new URL(`../../../../fixtures/linux/${path}`, import.meta.url));
const rootOf = (name: string) => fixture(`roots/${name}`);

describe('system info', () => {
  test('Debian laptop: os-release PRETTY_NAME and the DMI vendor and product', async () => {
    const info = await linuxSystemInfo(rootOf('laptop-discharging')).info();
    expect(info.os).toBe('Debian GNU/Linux 12 (bookworm)');
    expect(info.model).toBe('LENOVO ThinkPad X1 Carbon Gen 9');
    // The rest comes from the running machine through Node's os module.
    expect(info.kernel).toBe(`Linux ${os.release()}`);
    expect(info.memoryBytes).toBe(os.totalmem());
    expect(info.cpuCores).toBe(os.cpus().length);
    expect(info.arch).toBe(os.machine());
    expect(info.hostname).toBe(os.hostname());
  });

  test('os-release only under /usr/lib (Fedora) is read too', async () => {
    const info = await linuxSystemInfo(rootOf('laptop-charging')).info();
    expect(info.os).toBe('Fedora Linux 39 (Workstation Edition)');
    expect(info.model).toBe('Dell Inc. XPS 13 9310');
  });

  test('a container has no DMI: no model; an os-release without PRETTY_NAME gives NAME and VERSION', async () => {
    const info = await linuxSystemInfo(rootOf('container')).info();
    expect(info.os).toBe('Alpine Linux 3.20.3');
    expect(info).not.toHaveProperty('model');
  });

  test('firmware placeholders are not a model', async () => {
    const info = await linuxSystemInfo(rootOf('desktop-mains')).info();
    expect(info.os).toBe('Arch Linux');
    expect(info).not.toHaveProperty('model');
    expect(dmiModel('HP', 'HP EliteBook 840 G8')).toBe('HP EliteBook 840 G8');
    expect(dmiModel('LENOVO', 'Default string')).toBeUndefined();
  });

  test('no os-release at all: plain Linux', async () => {
    const info = await linuxSystemInfo(fixture('cpuinfo')).info();
    expect(info.os).toBe('Linux');
  });

  test('os-release quoting and escapes', () => {
    expect(osName('NAME=Gentoo\nPRETTY_NAME="Gentoo \\"Linux\\""\n')).toBe('Gentoo "Linux"');
    expect(osName('# nothing\n')).toBeUndefined();
  });

  test('the processor name in /proc/cpuinfo on x86 and on a Raspberry Pi', () => {
    expect(cpuInfoModel(readFileSync(fixture('cpuinfo/x86.txt'), 'utf8'))).toBe(
      '11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz',
    );
    expect(cpuInfoModel(readFileSync(fixture('cpuinfo/raspberry-pi.txt'), 'utf8'))).toBe(
      'Raspberry Pi 4 Model B Rev 1.1',
    );
    expect(cpuInfoModel('processor\t: 0\n')).toBeUndefined();
  });
});

describe('battery', () => {
  const battery = (name: string) => linuxSystemInfo(rootOf(name)).battery();

  test('discharging on battery: percent, minutes left from energy and power; a mouse battery is left out', async () => {
    expect(await battery('laptop-discharging')).toEqual({
      hasBattery: true,
      onExternalPower: false,
      batteries: [{ name: 'BAT0', percent: 81, state: 'discharging', minutesRemaining: 300 }],
    });
  });

  test('charging: percent from charge_now / charge_full, minutes to full from the current', async () => {
    expect(await battery('laptop-charging')).toEqual({
      hasBattery: true,
      onExternalPower: true,
      batteries: [{ name: 'BAT0', percent: 40, state: 'charging', minutesRemaining: 120 }],
    });
  });

  test('full on mains: no minutes', async () => {
    expect(await battery('laptop-full')).toEqual({
      hasBattery: true,
      onExternalPower: true,
      batteries: [{ name: 'BAT1', percent: 100, state: 'full' }],
    });
  });

  test('two batteries: the kernel estimate for one, energy for the other; USB-C offline too', async () => {
    expect(await battery('two-batteries')).toEqual({
      hasBattery: true,
      onExternalPower: false,
      batteries: [
        { name: 'BAT0', percent: 50, state: 'discharging', minutesRemaining: 60 },
        { name: 'BAT1', percent: 95, state: 'not charging' },
      ],
    });
  });

  test('a desktop with mains only says so plainly', async () => {
    const status = await battery('desktop-mains');
    expect(status).toEqual({
      hasBattery: false,
      onExternalPower: true,
      reason: expect.stringContaining('no battery in'),
    });
    expect(status.hasBattery === false && status.reason).toMatch(
      /sys\/class\/power_supply: a desktop or virtual machine$/,
    );
  });

  test('no power supplies at all (a container or VM): no battery, power unknown', async () => {
    const status = await battery('container');
    expect(status.hasBattery).toBe(false);
    expect(status).not.toHaveProperty('onExternalPower');
  });
});
