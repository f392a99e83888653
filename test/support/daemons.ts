/**
 * The desktop daemons the system and file manager tests drive: a notification daemon, a PulseAudio server with a
 * null sink, Thunar as the org.freedesktop.FileManager1 provider, and a bare session bus with nothing to
 * activate. Each is started through the test's Processes (its own process group, stopped by pid) and is ready
 * when it returns: the bus name is owned by that very process, or pactl reaches the server.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeBusConfig } from '../../scripts/desktop.js';
import type { Processes } from './processes.js';
import { eventually } from './text.js';

const run = promisify(execFile);

/** The pid of the process owning `name` on the session bus of `env`, or undefined when nobody owns it. */
export async function busNameOwner(env: NodeJS.ProcessEnv, name: string): Promise<number | undefined> {
  try {
    const { stdout } = await run(
      'gdbus',
      [
        'call',
        '--session',
        '-d',
        'org.freedesktop.DBus',
        '-o',
        '/org/freedesktop/DBus',
        '-m',
        'org.freedesktop.DBus.GetConnectionUnixProcessID',
        name,
      ],
      { env, timeout: 5000 },
    );
    return Number(/uint32 (\d+)/.exec(stdout)?.[1]) || undefined;
  } catch {
    return undefined;
  }
}

/** Starts `command` and waits until that process owns `name` on the session bus; returns its pid. */
async function ownerOf(
  processes: Processes,
  env: NodeJS.ProcessEnv,
  name: string,
  command: string,
  args: string[] = [],
) {
  const { pid } = processes.start(command, args);
  await eventually(`${command} (pid ${pid}) to own ${name}`, async () => {
    const owner = await busNameOwner(env, name);
    if (owner !== undefined && owner !== pid) {
      throw new Error(`${name} is owned by pid ${owner}, not by the ${command} this test started (${pid})`);
    }
    return owner;
  });
  return pid;
}

export const NOTIFICATION_DAEMON = '/usr/lib/notification-daemon/notification-daemon';

export function startNotificationDaemon(processes: Processes, env: NodeJS.ProcessEnv): Promise<number> {
  return ownerOf(processes, env, 'org.freedesktop.Notifications', NOTIFICATION_DAEMON);
}

/** Thunar's daemon mode: no window until asked, and the FileManager1 name owned by the process we started. */
export function startThunar(processes: Processes, env: NodeJS.ProcessEnv): Promise<number> {
  return ownerOf(processes, env, 'org.freedesktop.FileManager1', 'thunar', ['--daemon']);
}

/** Runs pactl against the desktop's server (C locale) and returns its stdout. */
export async function pactl(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const { stdout } = await run('pactl', args, { env: { ...env, LC_ALL: 'C' }, timeout: 5000 });
  return stdout;
}

/**
 * The environment for PulseAudio clients (macpilot's pactl, the tests' pactl) that never start a server by
 * themselves: libpulse autospawns one for a user without a server (not for root), which would turn "no sound
 * server" into a daemon nobody tracks. The client settings go into `dir`.
 */
export function withoutAutospawn(env: Record<string, string>, dir: string): Record<string, string> {
  const config = join(dir, 'pulse-client.conf');
  writeFileSync(config, 'autospawn = no\n');
  return { ...env, PULSE_CLIENTCONFIG: config };
}

/**
 * A PulseAudio server for the desktop's user, with only the native protocol and one null sink (no sound card).
 * It lives in the desktop's XDG_RUNTIME_DIR and HOME (both private temporary folders), never exits by itself,
 * and is ready once pactl reaches it.
 */
export async function startPulseAudio(processes: Processes, env: NodeJS.ProcessEnv): Promise<number> {
  const { pid } = processes.start('pulseaudio', [
    '-n',
    '--daemonize=no',
    '--use-pid-file=no',
    '--exit-idle-time=-1',
    '--disallow-exit',
    '--load=module-native-protocol-unix',
    '--load=module-null-sink sink_name=macpilot_null',
  ]);
  await eventually(`pulseaudio (pid ${pid}) to answer pactl`, async () =>
    (await pactl(env, 'get-default-sink')).trim() === 'macpilot_null' ? true : undefined,
  );
  return pid;
}

/**
 * A session bus of its own with no service files, so nothing can be activated on it: where no notification
 * daemon or file manager exists. Returns its address.
 */
export async function startBareBus(processes: Processes, dir: string): Promise<string> {
  const socket = join(dir, 'bare-bus');
  const config = writeBusConfig(join(dir, 'bare-bus.conf'), socket);
  processes.start('dbus-daemon', ['--nofork', `--config-file=${config}`]);
  const address = `unix:path=${socket}`;
  await eventually('the bare session bus', async () => {
    await run(
      'gdbus',
      [
        'call',
        '-a',
        address,
        '-d',
        'org.freedesktop.DBus',
        '-o',
        '/org/freedesktop/DBus',
        '-m',
        'org.freedesktop.DBus.ListNames',
      ],
      { timeout: 5000 },
    );
    return true;
  });
  return address;
}
