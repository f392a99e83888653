/**
 * A private headless desktop: Xvfb (or, for two monitors, Xorg's dummy driver) + session D-Bus + AT-SPI bus +
 * openbox, with its own display number and XDG_RUNTIME_DIR; or, with `session: 'sway'`, a headless sway (run as
 * the user SWAY_USER when we are root: sway refuses root) in place of the X server and openbox. Every process it starts leads its own process group; stop() signals exactly those groups.
 *
 * As a script (`npx tsx scripts/desktop.ts`) it starts a desktop, prints the environment to use it, and stops it
 * on Ctrl-C. MACPILOT_KEEP_DESKTOP=1 keeps its folder (with each process's log) after it stops.
 */
import { type ChildProcess, execFileSync, type StdioOptions, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { stopGroup } from './process-group.js';

/**
 * Debian packages the desktop, the test apps, the bench peers and the Swift chroot come from, each with a command
 * it provides.
 */
type Use = 'test' | 'wayland' | 'gnome' | 'kde' | 'bench' | 'swift';
const USES: readonly Use[] = ['test', 'wayland', 'gnome', 'kde', 'bench', 'swift'];
const REQUIRED: ReadonlyArray<{ pkg: string; command: string; use: Use }> = readFileSync(
  new URL('./debian-packages.txt', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
  .map((line) => {
    const [pkg = '', command = '', use] = line.trim().split(/\s+/);
    return { pkg, command, use: USES.find((u) => u === use) ?? 'test' };
  });

/** What `npm test` needs: the X11 desktop's packages and the Wayland suites'. */
export const DESKTOP_PACKAGES = [
  ...new Set(REQUIRED.filter((r) => ['test', 'wayland', 'gnome', 'kde'].includes(r.use)).map((r) => r.pkg)),
];
export const INSTALL_COMMAND = `sudo apt-get install -y --no-install-recommends ${DESKTOP_PACKAGES.join(' ')}`;

function onPath(command: string): boolean {
  if (command.startsWith('/')) return existsSync(command);
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, command)));
}

/** The packages that the tests (the Wayland suite, or the bench) need and whose commands are missing here. */
export function missingPackages(use: 'test' | 'wayland' | 'gnome' | 'kde' | 'bench' = 'test'): string[] {
  const needed = REQUIRED.filter((r) => r.use === 'test' || r.use === use);
  return [...new Set(needed.filter((r) => !onPath(r.command)).map((r) => r.pkg))];
}

export interface Desktop {
  /** Environment for processes that should live on this desktop. */
  readonly env: NodeJS.ProcessEnv;
  readonly display: string;
  readonly runtimeDir: string;
  /** Start a process on this desktop; it is stopped with the desktop. */
  spawn(command: string, args?: string[]): ChildProcess;
  /** Take charge of a process started elsewhere (e.g. by launch_app): it is stopped with the desktop. */
  track(pid: number): void;
  /** Stop one tracked process (and its process group) now. */
  kill(pid: number): Promise<void>;
  stop(): Promise<void>;
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`desktop: timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

function succeeds(command: string, args: string[], env: NodeJS.ProcessEnv): boolean {
  try {
    execFileSync(command, args, { env, stdio: 'ignore', timeout: 2000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Two 1280x800 monitors side by side: LEFT at 0,0 (primary) and RIGHT at 1280,0, as RandR 1.5 monitors over one
 * 2560x800 output, which is what GTK, window managers and macpilot read. Xvfb cannot report monitors at an
 * origin other than 0,0; Xorg's dummy driver can (it needs root).
 */
export const TWO_MONITORS = [
  { name: 'LEFT', x: 0, y: 0, width: 1280, height: 800 },
  { name: 'RIGHT', x: 1280, y: 0, width: 1280, height: 800 },
] as const;

/** Xorg with the dummy driver and no input devices of the host (it must not take this machine's keyboard). */
const DUMMY_XORG_CONF = `Section "ServerFlags"
  Option "AutoAddDevices" "false"
  Option "AutoEnableDevices" "false"
  Option "DontVTSwitch" "true"
EndSection
Section "Device"
  Identifier "dummy"
  Driver "dummy"
  VideoRam 256000
EndSection
Section "Monitor"
  Identifier "monitor"
  HorizSync 5.0-1000.0
  VertRefresh 5.0-200.0
EndSection
Section "Screen"
  Identifier "screen"
  Device "dummy"
  Monitor "monitor"
  DefaultDepth 24
  SubSection "Display"
    Depth 24
    Virtual 2560 800
  EndSubSection
EndSection
`;

/** The X server's arguments and how to finish setting it up once it runs. */
function xServer(runtimeDir: string, monitors: 1 | 2): { command: string; args: string[] } {
  const common = ['-displayfd', '3', '-nolisten', 'tcp', '-noreset'];
  if (monitors === 1) return { command: 'Xvfb', args: ['-screen', '0', '1280x800x24', ...common] };
  const config = join(runtimeDir, 'xorg.conf');
  const configDir = join(runtimeDir, 'xorg.conf.d');
  writeFileSync(config, DUMMY_XORG_CONF);
  mkdirSync(configDir);
  const log = join(runtimeDir, 'Xorg.log');
  return { command: 'Xorg', args: ['-config', config, '-configdir', configDir, '-logfile', log, ...common] };
}

/** One mode over the whole screen (one CRTC, so the pointer reaches everywhere), cut into the two monitors. */
function splitIntoMonitors(env: NodeJS.ProcessEnv): void {
  const xrandr = (...args: string[]) => execFileSync('xrandr', args, { env, timeout: 5000, stdio: 'pipe' });
  xrandr('--newmode', '2560x800dual', '174.25', '2560', '2608', '2640', '2720', '800', '803', '809', '838');
  xrandr('--addmode', 'DUMMY0', '2560x800dual');
  xrandr('--output', 'DUMMY0', '--mode', '2560x800dual', '--primary');
  for (const [i, m] of TWO_MONITORS.entries()) {
    // A size in millimetres as well (338x211: about 96 dpi), else RandR takes the monitor for 0 mm wide.
    const geometry = `${m.width}/338x${m.height}/211+${m.x}+${m.y}`;
    xrandr('--setmonitor', m.name, geometry, i === 0 ? 'DUMMY0' : 'none');
  }
}

/** The user a root test run starts sway as, created when missing (sway refuses to run as root). */
export const SWAY_USER = 'macpilot-sway';

/** The uid and gid sway runs as: our own, or SWAY_USER's when we are root. */
function swayIdentity(): { uid: number; gid: number } {
  const uid = process.getuid?.() ?? 0;
  if (uid !== 0) return { uid, gid: process.getgid?.() ?? uid };
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, SWAY_USER], { stdio: 'pipe' }).toString().trim());
  if (!succeeds('id', [SWAY_USER], process.env)) {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SWAY_USER]);
  }
  return { uid: id('-u'), gid: id('-g') };
}

/** One 1280x800 output, XWayland started when an X11 app first connects, no bar: the Wayland suite's session. */
const SWAY_CONFIG = `output HEADLESS-1 resolution 1280x800 position 0 0
xwayland enable
default_border normal
`;

/**
 * Starts sway on `runtimeDir` and returns WAYLAND_DISPLAY and SWAYSOCK once both sockets are there, and
 * XWAYLAND_DISPLAY: the X display sway's XWayland serves, for a test to start an X11 app in the session.
 */
async function startSway(
  runtimeDir: string,
  start: (command: string, args: string[], env: NodeJS.ProcessEnv) => ChildProcess,
): Promise<{ WAYLAND_DISPLAY: string; SWAYSOCK: string; XWAYLAND_DISPLAY: string }> {
  const { uid, gid } = swayIdentity();
  execFileSync('chown', [`${uid}:${gid}`, runtimeDir]);
  const config = join(runtimeDir, 'sway.conf');
  writeFileSync(config, SWAY_CONFIG, { mode: 0o644 });
  const env = {
    PATH: process.env.PATH,
    XDG_RUNTIME_DIR: runtimeDir,
    HOME: runtimeDir,
    WLR_BACKENDS: 'headless',
    WLR_RENDERER: 'pixman',
    WLR_LIBINPUT_NO_DEVICES: '1',
  };
  const asUser =
    process.getuid?.() === 0 ? ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'] : [];
  const [command = 'sway', ...args] = [...asUser, 'sway', '-c', config];
  start(command, args, env);
  const socket = () => readdirSync(runtimeDir).find((name) => /^sway-ipc\..*\.sock$/.test(name));
  const display = () => readdirSync(runtimeDir).find((name) => /^wayland-\d+$/.test(name));
  await waitFor('sway', () => socket() !== undefined && display() !== undefined, 20000);
  const SWAYSOCK = join(runtimeDir, socket() as string);
  // sway gives the X display to what it runs, and only to that: a command it runs writes it down, once it has
  // let X11 apps of ours (the tests' user, not sway's) connect to the XWayland server, which refuses other users.
  const xDisplayFile = join(runtimeDir, 'xwayland-display');
  const allowUs = `xhost +si:localuser:${userInfo().username} > /dev/null`;
  execFileSync('swaymsg', ['-s', SWAYSOCK, 'exec', `${allowUs} && printenv DISPLAY > ${xDisplayFile}`], {
    stdio: 'ignore',
  });
  await waitFor(
    "sway's XWayland display",
    () => existsSync(xDisplayFile) && readFileSync(xDisplayFile, 'utf8').trim() !== '',
    10000,
  );
  return {
    WAYLAND_DISPLAY: display() as string,
    SWAYSOCK,
    XWAYLAND_DISPLAY: readFileSync(xDisplayFile, 'utf8').trim(),
  };
}

/** The display of the GNOME suite's compositor, a socket in the desktop's XDG_RUNTIME_DIR. */
const GNOME_DISPLAY = 'wayland-0';
const GNOME_EXTENSION = 'macpilot@macpilot.dev';

/**
 * Starts a headless GNOME Shell on the session bus of `env`: first the system bus it asks for (a private one),
 * PipeWire for its screen casts, macpilot's extension installed and enabled, animations off; then waits for the
 * extension's service, puts a keyboard and a pointer on the seat (scripts/gnome-seat.mjs) and leaves the
 * overview GNOME Shell opens at start.
 */
async function startGnome(
  runtimeDir: string,
  env: NodeJS.ProcessEnv,
  start: (command: string, args: string[], env: NodeJS.ProcessEnv) => ChildProcess,
): Promise<void> {
  const systemBus = join(runtimeDir, 'system-bus');
  start('dbus-daemon', ['--nofork', `--config-file=${writeBusConfig(`${systemBus}.conf`, systemBus)}`], env);
  await waitFor('the private system bus', () => existsSync(systemBus), 10000);
  const extensions = join(env.XDG_DATA_HOME ?? '', 'gnome-shell', 'extensions');
  mkdirSync(extensions, { recursive: true });
  cpSync(
    fileURLToPath(new URL(`../gnome-extension/${GNOME_EXTENSION}`, import.meta.url)),
    join(extensions, GNOME_EXTENSION),
    {
      recursive: true,
    },
  );
  const set = (schema: string, key: string, value: string) =>
    execFileSync('gsettings', ['set', schema, key, value], { env, stdio: 'ignore' });
  set('org.gnome.shell', 'enabled-extensions', `['${GNOME_EXTENSION}']`);
  set('org.gnome.desktop.interface', 'enable-animations', 'false');
  // The pointer at a screen corner would open the overview.
  set('org.gnome.desktop.interface', 'enable-hot-corners', 'false');
  start('pipewire', [], env);
  start('wireplumber', [], env);
  start(
    'gnome-shell',
    [
      '--headless',
      '--virtual-monitor',
      '1280x800',
      '--wayland',
      '--no-x11',
      `--wayland-display=${GNOME_DISPLAY}`,
    ],
    env,
  );
  const gdbus = (...args: string[]) =>
    execFileSync('gdbus', ['call', '--session', ...args], { env, timeout: 2000, stdio: 'pipe' }).toString();
  const owned = (name: string) => {
    try {
      return gdbus(
        '-d',
        'org.freedesktop.DBus',
        '-o',
        '/org/freedesktop/DBus',
        '-m',
        'org.freedesktop.DBus.NameHasOwner',
        name,
      ).includes('true');
    } catch {
      return false;
    }
  };
  await waitFor("GNOME Shell and macpilot's extension", () => owned('org.macpilot.Windows'), 30000);
  const ready = join(runtimeDir, 'gnome-seat-ready');
  start('node', [fileURLToPath(new URL('./gnome-seat.mjs', import.meta.url)), ready], env);
  await waitFor('a keyboard on the GNOME seat', () => existsSync(ready), 10000);
  const overview = (value?: boolean) =>
    value === undefined
      ? gdbus(
          '-d',
          'org.gnome.Shell',
          '-o',
          '/org/gnome/Shell',
          '-m',
          'org.freedesktop.DBus.Properties.Get',
          'org.gnome.Shell',
          'OverviewActive',
        ).includes('true')
      : gdbus(
          '-d',
          'org.gnome.Shell',
          '-o',
          '/org/gnome/Shell',
          '-m',
          'org.freedesktop.DBus.Properties.Set',
          'org.gnome.Shell',
          'OverviewActive',
          `<${value}>`,
        );
  // GNOME Shell opens the overview once it has started: it is closed, and seen to stay closed.
  const deadline = Date.now() + 10000;
  for (;;) {
    overview(false);
    await sleep(300);
    if (!overview()) break;
    if (Date.now() > deadline) throw new Error('desktop: the GNOME overview does not close');
  }
}

/**
 * Writes the lock file of `display` (/tmp/.X<n>-lock, the X server's pid as X servers write it) for its server.
 * An X server that picks its display itself (-displayfd) writes none, and an XWayland started by a compositor
 * (KWin, sway's wlroots) takes a display without a lock file as free: it removes the socket there and binds its
 * own, cutting a running desktop off. Returns what to remove when the desktop stops, or undefined when another
 * process holds the lock already.
 */
function lockDisplay(display: string, pid: number): { file: string; content: string } | undefined {
  const file = `/tmp/.X${display.slice(1)}-lock`;
  const content = `${String(pid).padStart(10)}\n`;
  try {
    writeFileSync(file, content, { flag: 'wx', mode: 0o444 });
    return { file, content };
  } catch {
    return undefined;
  }
}

/** The display of the KDE suite's compositor, a socket in the desktop's XDG_RUNTIME_DIR. */
const KDE_DISPLAY = 'wayland-kde';

/**
 * Starts a headless KWin (Plasma's compositor, on its virtual backend with QPainter compositing: no GPU) on the
 * session bus of `env`, and waits for its scripting interface. It runs from a copy of kwin_wayland: the packaged
 * binary carries a file capability (CAP_SYS_RESOURCE), and a container that may not grant it refuses to run it
 * at all; KWin's own platform plugin loads only into a program of that name.
 */
async function startKwin(
  runtimeDir: string,
  env: NodeJS.ProcessEnv,
  start: (command: string, args: string[], env: NodeJS.ProcessEnv) => ChildProcess,
): Promise<string> {
  const kwin = join(runtimeDir, 'kwin', 'kwin_wayland');
  mkdirSync(join(runtimeDir, 'kwin'));
  cpSync('/usr/bin/kwin_wayland', kwin);
  // KWin gives the X display of its XWayland to the programs it starts: one writes it down. Its XWayland needs
  // the X sockets' folder, which an X server makes on a fresh machine (CI's) and nothing has made yet here.
  if (!existsSync('/tmp/.X11-unix')) {
    mkdirSync('/tmp/.X11-unix');
    chmodSync('/tmp/.X11-unix', 0o1777);
  }
  const xDisplayFile = join(runtimeDir, 'xwayland-display');
  start(
    kwin,
    [
      '--virtual',
      '--xwayland',
      '--width',
      '1280',
      '--height',
      '800',
      '--no-lockscreen',
      '--no-global-shortcuts',
      '--socket',
      KDE_DISPLAY,
      `sh -c 'printenv DISPLAY > ${xDisplayFile}'`,
    ],
    env,
  );
  await waitFor(
    "KWin's scripting interface",
    () =>
      existsSync(join(runtimeDir, KDE_DISPLAY)) &&
      succeeds(
        'gdbus',
        [
          'call',
          '--session',
          '-d',
          'org.kde.KWin',
          '-o',
          '/Scripting',
          '-m',
          'org.kde.kwin.Scripting.isScriptLoaded',
          'macpilot-probe',
        ],
        env,
      ),
    30000,
  );
  await waitFor(
    "KWin's XWayland display",
    () => existsSync(xDisplayFile) && readFileSync(xDisplayFile, 'utf8').trim() !== '',
    10000,
  );
  return readFileSync(xDisplayFile, 'utf8').trim();
}

export async function startDesktop(
  options: { windowManager?: boolean; monitors?: 1 | 2; session?: 'x11' | 'sway' | 'gnome' | 'kde' } = {},
): Promise<Desktop> {
  const monitors = options.monitors ?? 1;
  const sway = options.session === 'sway';
  const gnome = options.session === 'gnome';
  const kde = options.session === 'kde';
  if (monitors === 2 && process.getuid?.() !== 0) {
    throw new Error('desktop: two monitors need Xorg with the dummy driver, which runs as root only');
  }
  const missing = missingPackages(sway ? 'wayland' : gnome ? 'gnome' : kde ? 'kde' : 'test');
  if (missing.length > 0) {
    throw new Error(
      `The desktop test suite needs Debian packages that are missing: ${missing.join(', ')}.\n` +
        `Install them with:\n  ${INSTALL_COMMAND}\n(or run scripts/install.sh)`,
    );
  }
  const runtimeDir = mkdtempSync(join(tmpdir(), 'macpilot-desktop-'));
  for (const sub of ['config', 'data', 'cache', 'home', 'tmp']) mkdirSync(join(runtimeDir, sub));
  const pids: number[] = [];
  /** Starts a process in its own group; with `log`, its output goes to <runtimeDir>/<command>.log. */
  const start = (
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    options: { log?: boolean; fd3?: number } = {},
  ) => {
    const log =
      options.log === false ? 'ignore' : openSync(join(runtimeDir, `${command.split('/').pop()}.log`), 'a');
    const stdio: StdioOptions = ['ignore', log, log, ...(options.fd3 === undefined ? [] : [options.fd3])];
    const child = spawn(command, args, { env, detached: true, stdio });
    if (child.pid === undefined) throw new Error(`desktop: could not start ${command}`);
    pids.push(child.pid);
    child.unref();
    return child;
  };

  /** The X display's lock file, written for the X server (see lockDisplay). */
  let lock: { file: string; content: string } | undefined;
  const stop = async () => {
    for (const pid of pids.reverse()) await stopGroup(pid);
    pids.length = 0;
    if (lock && existsSync(lock.file) && readFileSync(lock.file, 'utf8') === lock.content) rmSync(lock.file);
    lock = undefined;
    if (!process.env.MACPILOT_KEEP_DESKTOP) rmSync(runtimeDir, { recursive: true, force: true });
  };

  try {
    let display = '';
    let wayland: Awaited<ReturnType<typeof startSway>> | undefined;
    if (sway) wayland = await startSway(runtimeDir, (command, args, env) => start(command, args, env));
    else if (!gnome && !kde) {
      // Xvfb picks a free display itself and writes its number to the file we give it as fd 3. Without
      // -noreset it resets whenever its last client leaves, and a client connecting meanwhile (openbox) fails.
      const displayFile = join(runtimeDir, 'display');
      const server = xServer(runtimeDir, monitors);
      const x = start(server.command, server.args, process.env, { fd3: openSync(displayFile, 'w') });
      await waitFor(
        `${server.command} to choose a display`,
        () => readFileSync(displayFile, 'utf8').trim().length > 0,
        10000,
      );
      display = `:${readFileSync(displayFile, 'utf8').trim()}`;
      lock = lockDisplay(display, x.pid ?? 0);
    }

    const busPath = join(runtimeDir, 'bus');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...(wayland
        ? { ...wayland, XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'sway' }
        : gnome
          ? {
              WAYLAND_DISPLAY: GNOME_DISPLAY,
              XDG_SESSION_TYPE: 'wayland',
              XDG_CURRENT_DESKTOP: 'GNOME',
              DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${join(runtimeDir, 'system-bus')}`,
            }
          : kde
            ? {
                WAYLAND_DISPLAY: KDE_DISPLAY,
                XDG_SESSION_TYPE: 'wayland',
                XDG_CURRENT_DESKTOP: 'KDE',
                KDE_SESSION_VERSION: '5',
                KWIN_COMPOSE: 'Q',
              }
            : { DISPLAY: display }),
      XDG_RUNTIME_DIR: runtimeDir,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${busPath}`,
      XDG_CONFIG_HOME: join(runtimeDir, 'config'),
      XDG_DATA_HOME: join(runtimeDir, 'data'),
      XDG_CACHE_HOME: join(runtimeDir, 'cache'),
      HOME: join(runtimeDir, 'home'),
      // Apps' temporary files (Chromium's singleton socket, for one) go where the desktop's stop removes them.
      TMPDIR: join(runtimeDir, 'tmp'),
      GDK_BACKEND: wayland || gnome || kde ? 'wayland' : 'x11',
      QT_ACCESSIBILITY: '1',
      LANG: 'C.UTF-8',
    };
    const hidden = wayland
      ? ['DISPLAY']
      : gnome || kde
        ? ['DISPLAY', 'SWAYSOCK']
        : ['WAYLAND_DISPLAY', 'SWAYSOCK'];
    const inherited = [
      'NO_AT_BRIDGE',
      'GTK_A11Y',
      'AT_SPI_BUS_ADDRESS',
      'GSETTINGS_BACKEND',
      'DBUS_SYSTEM_BUS_ADDRESS',
    ];
    for (const hide of [
      ...inherited.filter((name) => !(gnome && name === 'DBUS_SYSTEM_BUS_ADDRESS')),
      ...hidden,
    ]) {
      delete env[hide];
    }
    // GNOME Shell's settings are dconf's, which the tests change from outside (gsettings).
    if (!gnome) env.GSETTINGS_BACKEND = 'memory';
    if (monitors === 2) splitIntoMonitors(env);

    start('dbus-daemon', ['--nofork', `--config-file=${sessionBusConfig(runtimeDir, busPath)}`], env);
    await waitFor('the session bus', () => existsSync(busPath), 10000);
    // Started here rather than by the first app, so that we own it and stop it.
    start('/usr/libexec/at-spi-bus-launcher', ['--launch-immediately'], env);
    await waitFor(
      'the accessibility bus',
      () =>
        succeeds(
          'gdbus',
          ['call', '--session', '-d', 'org.a11y.Bus', '-o', '/org/a11y/bus', '-m', 'org.a11y.Bus.GetAddress'],
          env,
        ),
      15000,
    );
    if (gnome) await startGnome(runtimeDir, env, (command, args, env) => start(command, args, env));
    if (kde) {
      env.XWAYLAND_DISPLAY = await startKwin(runtimeDir, env, (command, args, env) =>
        start(command, args, env),
      );
    }
    if (options.windowManager !== false && !sway && !gnome && !kde) {
      start('openbox', ['--sm-disable'], env);
      await waitFor(
        'openbox',
        () =>
          execFileSync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], { env, timeout: 2000 })
            .toString()
            .includes('window id'),
        20000,
      );
    }

    return {
      env,
      display,
      runtimeDir,
      spawn: (command, args = []) => start(command, args, env, { log: false }),
      track: (pid) => {
        if (!pids.includes(pid)) pids.push(pid);
      },
      kill: async (pid) => {
        await stopGroup(pid);
        const i = pids.indexOf(pid);
        if (i >= 0) pids.splice(i, 1);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Where Debian's packages put the D-Bus services a session bus may start on demand. */
const SERVICE_DIRS = ['/usr/local/share/dbus-1/services', '/usr/share/dbus-1/services'];
/** Names no service of the desktop may take by activation: the tests start the daemon they test themselves. */
const NOT_ACTIVATED = new Set(['org.freedesktop.Notifications']);

/**
 * The session bus's configuration: the standard session bus, except that the services it may start on demand
 * are the installed ones less NOT_ACTIVATED. With a notification daemon such as dunst installed, the standard
 * bus would start it for the first notification, behind the back of a test of "no daemon in the session".
 */
function sessionBusConfig(runtimeDir: string, busPath: string): string {
  const services = join(runtimeDir, 'dbus-services');
  mkdirSync(services);
  for (const dir of SERVICE_DIRS.filter((d) => existsSync(d))) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.service'))) {
      const name = /^Name=(.*)$/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1]?.trim();
      if (name === undefined || NOT_ACTIVATED.has(name) || existsSync(join(services, file))) continue;
      symlinkSync(join(dir, file), join(services, file));
    }
  }
  return writeBusConfig(join(runtimeDir, 'session-bus.conf'), busPath, services);
}

/**
 * A session bus configuration at `file`: listening on the socket `busPath`, open to every local client of the
 * user, starting on demand only the services in `services` (none without it). Returns `file`.
 */
export function writeBusConfig(file: string, busPath: string, services?: string): string {
  const servicedir = services === undefined ? '' : `\n  <servicedir>${services}</servicedir>`;
  writeFileSync(
    file,
    `<busconfig>
  <type>session</type>
  <listen>unix:path=${busPath}</listen>
  <auth>EXTERNAL</auth>${servicedir}
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
  );
  return file;
}

// Last: run as a script, everything above is initialized (a const below it would not be yet).
const USAGE = `Usage: npx tsx scripts/desktop.ts [--monitors=2 | --session=sway | --session=gnome | --session=kde]
Starts a private headless desktop (Xvfb, D-Bus, AT-SPI, openbox), prints the environment that reaches it, and
stops it on Ctrl-C. --monitors=2: two 1280x800 monitors side by side (Xorg's dummy driver; root only).
--session=sway: a headless sway instead of X11 (run as the user ${SWAY_USER} when we are root).
--session=gnome: a headless GNOME Shell with PipeWire and macpilot's GNOME Shell extension.
--session=kde: a headless KWin (Plasma's compositor; Debian 12 has Plasma 5.27).
MACPILOT_KEEP_DESKTOP=1 keeps its folder, with each process's log, after it stops.`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  const known = [
    '--monitors=1',
    '--monitors=2',
    '--session=x11',
    '--session=sway',
    '--session=gnome',
    '--session=kde',
  ];
  const unknown = args.filter((arg) => !known.includes(arg));
  if (unknown.length > 0) {
    console.error(`desktop: unknown argument ${unknown.join(' ')}\n${USAGE}`);
    process.exit(2);
  }
  const session = args.includes('--session=sway')
    ? 'sway'
    : args.includes('--session=gnome')
      ? 'gnome'
      : args.includes('--session=kde')
        ? 'kde'
        : 'x11';
  const desktop = await startDesktop({ monitors: args.includes('--monitors=2') ? 2 : 1, session });
  const shown = {
    x11: ['DISPLAY', 'GSETTINGS_BACKEND'],
    sway: ['WAYLAND_DISPLAY', 'SWAYSOCK', 'XWAYLAND_DISPLAY', 'GDK_BACKEND', 'GSETTINGS_BACKEND'],
    gnome: [
      'WAYLAND_DISPLAY',
      'GDK_BACKEND',
      'XDG_CURRENT_DESKTOP',
      'XDG_SESSION_TYPE',
      'DBUS_SYSTEM_BUS_ADDRESS',
      'XDG_CONFIG_HOME',
      'XDG_DATA_HOME',
    ],
    kde: [
      'WAYLAND_DISPLAY',
      'XWAYLAND_DISPLAY',
      'GDK_BACKEND',
      'XDG_CURRENT_DESKTOP',
      'XDG_SESSION_TYPE',
      'KDE_SESSION_VERSION',
    ],
  }[session];
  for (const key of [...shown, 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', 'HOME']) {
    console.log(`export ${key}='${desktop.env[key]}'`);
  }
  console.log('# desktop running; Ctrl-C stops it');
  const shutdown = () => void desktop.stop().then(() => process.exit(0));
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  setInterval(() => {}, 1 << 30);
}
