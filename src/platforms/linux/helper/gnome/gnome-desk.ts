/**
 * A GNOME session as macpilot reaches it, all on the session bus: Mutter's RemoteDesktop for keys and the pointer
 * (absolute motion lands on a ScreenCast stream of the monitor, so one stream per monitor is recorded beside it),
 * those streams' PipeWire nodes for screenshots, DisplayConfig for the monitors, and macpilot's GNOME Shell
 * extension (gnome-extension/) for the windows, which GNOME Shell tells no other program, and the clipboard. The RemoteDesktop
 * session lives while this connection holds it; one that mutter closes is opened again at the next call.
 */
import { fileURLToPath } from 'node:url';
import {
  type Bounds,
  HelperErrorCode,
  type MouseButton,
  type Point,
} from '../../../../helper-client/protocol.js';
import { type Bus, connectBus } from '../../dbus/bus.js';
import { DBusCallError, HelperFailure } from '../../errors.js';

const REMOTE_DESKTOP = 'org.gnome.Mutter.RemoteDesktop';
const SCREEN_CAST = 'org.gnome.Mutter.ScreenCast';
const DISPLAY_CONFIG = 'org.gnome.Mutter.DisplayConfig';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
const BUS_DAEMON = 'org.freedesktop.DBus';
/** macpilot's GNOME Shell extension. */
export const WINDOWS_SERVICE = 'org.macpilot.Windows';
const WINDOWS_PATH = '/org/macpilot/Windows';
export const EXTENSION_UUID = 'macpilot@macpilot.dev';
/** Where macpilot's package holds the extension (beside dist/, where this code runs from). */
const EXTENSION_FOLDER = fileURLToPath(new URL(`../gnome-extension/${EXTENSION_UUID}`, import.meta.url));
/** How long a new stream gets to reach PipeWire. */
const STREAM_WAIT_MS = 5000;
/** Linux input event codes (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE). */
const BUTTON_CODES: Record<MouseButton, number> = { left: 0x110, right: 0x111, middle: 0x112 };
/** ScreenCast's cursor mode: the pointer is not painted into the frames (an X11 capture has none either). */
const CURSOR_HIDDEN = 0;

export type Axis = 'vertical' | 'horizontal';

export interface Monitor {
  connector: string;
  name: string;
  /** In the layout's logical pixels. */
  bounds: Bounds;
  scale: number;
  primary: boolean;
}

/** A monitor's stream: where absolute motion on it lands, and its PipeWire node for frames. */
export interface Stream {
  path: string;
  node: number;
  monitor: Monitor;
}

interface Remote {
  session: string;
  streams: Stream[];
}

/** A window as the extension lists it, bottom of the stacking first. */
export interface GnomeWindow {
  id: string;
  title: string;
  pid: number;
  wmClass: string;
  /** The window's frame, as people see it. */
  frame: Bounds;
  /** Its surface, shadows included: where the app's window-relative extents count from. */
  buffer: Bounds;
  focused: boolean;
  minimized: boolean;
  xwayland: boolean;
}

const notAvailable = (what: string, next: string) =>
  new HelperFailure(HelperErrorCode.NotAvailable, what, next);

export class GnomeDesk {
  private remoteOpening: Promise<Remote> | undefined;
  /** Where macpilot's pointer last went: Mutter reports no pointer position to other programs. */
  lastPoint: Point | undefined;

  private constructor(
    private readonly bus: Bus,
    readonly env: NodeJS.ProcessEnv,
  ) {
    bus.onSignal((signal) => {
      if (signal.iface === `${REMOTE_DESKTOP}.Session` && signal.member === 'Closed') {
        void this.remoteOpening?.then(
          (remote) => remote.session === signal.path && (this.remoteOpening = undefined),
          () => {},
        );
      }
    });
  }

  static async open(env: NodeJS.ProcessEnv): Promise<GnomeDesk> {
    const address = env.DBUS_SESSION_BUS_ADDRESS;
    if (!address) {
      throw notAvailable(
        'no session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
        'run macpilot inside the GNOME session',
      );
    }
    const bus = await connectBus(address).catch((error: Error) => {
      throw notAvailable(
        `cannot reach the session bus: ${error.message}`,
        'run macpilot inside the GNOME session',
      );
    });
    const desk = new GnomeDesk(bus, env);
    await desk.match(`type='signal',interface='${REMOTE_DESKTOP}.Session',member='Closed'`);
    return desk;
  }

  private match(rule: string): Promise<unknown> {
    return this.bus.call(BUS_DAEMON, '/org/freedesktop/DBus', BUS_DAEMON, 'AddMatch', 's', [rule]);
  }

  /** Whether a name has an owner on the session bus. */
  async owned(name: string): Promise<boolean> {
    const [has] = await this.bus.call(BUS_DAEMON, '/org/freedesktop/DBus', BUS_DAEMON, 'NameHasOwner', 's', [
      name,
    ]);
    return has === true;
  }

  /** The monitors in the layout, from DisplayConfig's current state. */
  async monitors(): Promise<Monitor[]> {
    const [, physical, logical, properties] = (await this.bus.call(
      DISPLAY_CONFIG,
      '/org/gnome/Mutter/DisplayConfig',
      DISPLAY_CONFIG,
      'GetCurrentState',
    )) as [number, PhysicalMonitor[], LogicalMonitor[], Record<string, unknown>];
    // Layout mode 1 is physical pixels; 2 (the default under Wayland) is logical: a mode's size over the scale.
    const logicalLayout = properties['layout-mode'] !== 1;
    return logical.map(([x, y, scale, , primary, specs]) => {
      const [connector = '', vendor = '', product = ''] = specs[0] ?? [];
      const modes = physical.find(([spec]) => spec[0] === connector)?.[1] ?? [];
      const mode = modes.find((m) => m[6]['is-current'] === true) ?? modes[0];
      const divisor = logicalLayout ? scale : 1;
      return {
        connector,
        name: [vendor, product].filter((part) => part && !part.startsWith('Meta')).join(' ') || connector,
        bounds: {
          x,
          y,
          width: Math.round((mode?.[1] ?? 0) / divisor),
          height: Math.round((mode?.[2] ?? 0) / divisor),
        },
        scale,
        primary,
      };
    });
  }

  /** The RemoteDesktop session and a stream of each monitor, opened at the first need. */
  remote(): Promise<Remote> {
    if (!this.remoteOpening) {
      const opening = this.openRemote();
      this.remoteOpening = opening;
      opening.catch(() => {
        if (this.remoteOpening === opening) this.remoteOpening = undefined;
      });
    }
    return this.remoteOpening;
  }

  private async openRemote(): Promise<Remote> {
    if (!(await this.owned(REMOTE_DESKTOP))) {
      throw notAvailable(
        'this GNOME session offers no remote desktop (nothing owns org.gnome.Mutter.RemoteDesktop)',
        'run macpilot inside a GNOME Wayland session (mutter 40 or later)',
      );
    }
    const [session] = (await this.bus.call(
      REMOTE_DESKTOP,
      '/org/gnome/Mutter/RemoteDesktop',
      REMOTE_DESKTOP,
      'CreateSession',
    )) as [string];
    const [id] = (await this.bus.call(REMOTE_DESKTOP, session, PROPERTIES, 'Get', 'ss', [
      `${REMOTE_DESKTOP}.Session`,
      'SessionId',
    ])) as [string];
    const [cast] = (await this.bus.call(
      SCREEN_CAST,
      '/org/gnome/Mutter/ScreenCast',
      SCREEN_CAST,
      'CreateSession',
      'a{sv}',
      [{ 'remote-desktop-session-id': this.bus.variant('s', id) }],
    )) as [string];
    const monitors = await this.monitors();
    const recorded = await Promise.all(
      monitors.map(async (monitor) => {
        const [path] = (await this.bus.call(
          SCREEN_CAST,
          cast,
          `${SCREEN_CAST}.Session`,
          'RecordMonitor',
          'sa{sv}',
          [monitor.connector, { 'cursor-mode': this.bus.variant('u', CURSOR_HIDDEN) }],
        )) as [string];
        return { path, monitor };
      }),
    );
    await this.match(`type='signal',interface='${SCREEN_CAST}.Stream',member='PipeWireStreamAdded'`);
    const nodes = new Map<string, number>();
    const heard = new Promise<void>((resolve) => {
      const stop = this.bus.onSignal((signal) => {
        if (signal.member !== 'PipeWireStreamAdded') return;
        nodes.set(signal.path, Number(signal.body[0]));
        if (recorded.every((r) => nodes.has(r.path))) {
          stop();
          resolve();
        }
      });
    });
    await this.bus.call(REMOTE_DESKTOP, session, `${REMOTE_DESKTOP}.Session`, 'Start');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            notAvailable(
              `the screen cast of ${monitors.map((m) => m.connector).join(', ')} did not start within ${STREAM_WAIT_MS} ms: PipeWire may not be running`,
              'start pipewire and wireplumber in the session (on Debian and Ubuntu: sudo apt install pipewire wireplumber)',
            ),
          ),
        STREAM_WAIT_MS,
      );
    });
    try {
      await Promise.race([heard, late]);
    } catch (error) {
      await this.bus.call(REMOTE_DESKTOP, session, `${REMOTE_DESKTOP}.Session`, 'Stop').catch(() => {});
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return { session, streams: recorded.map((r) => ({ ...r, node: nodes.get(r.path) ?? 0 })) };
  }

  /** The stream of the monitor that holds `point` (the nearest one for a point between monitors). */
  async streamAt(point: Point): Promise<Stream> {
    const { streams } = await this.remote();
    const distance = ({ monitor: { bounds: b } }: Stream) =>
      Math.hypot(
        Math.max(b.x - point.x, 0, point.x - (b.x + b.width - 1)),
        Math.max(b.y - point.y, 0, point.y - (b.y + b.height - 1)),
      );
    const [nearest] = [...streams].sort((a, b) => distance(a) - distance(b));
    if (!nearest) throw notAvailable('the GNOME session has no monitor to point at', 'connect a monitor');
    return nearest;
  }

  private async notify(member: string, signature: string, body: unknown[]): Promise<void> {
    const { session } = await this.remote();
    await this.bus
      .call(REMOTE_DESKTOP, session, `${REMOTE_DESKTOP}.Session`, member, signature, body)
      .catch((error: unknown) => {
        // A session mutter closed meanwhile (its object is gone) is opened again at the next call.
        if (
          error instanceof DBusCallError &&
          /Unknown(Object|Method|Interface)|ServiceUnknown/.test(error.type)
        ) {
          this.remoteOpening = undefined;
        }
        throw error;
      });
  }

  async moveTo(point: Point): Promise<void> {
    const stream = await this.streamAt(point);
    const { bounds } = stream.monitor;
    const x = Math.min(Math.max(point.x - bounds.x, 0), bounds.width - 1);
    const y = Math.min(Math.max(point.y - bounds.y, 0), bounds.height - 1);
    await this.notify('NotifyPointerMotionAbsolute', 'sdd', [stream.path, x, y]);
    this.lastPoint = point;
  }

  button(button: MouseButton, down: boolean): Promise<void> {
    return this.notify('NotifyPointerButton', 'ib', [BUTTON_CODES[button], down]);
  }

  /** Wheel steps (positive: down or right). */
  wheel(axis: Axis, steps: number): Promise<void> {
    return this.notify('NotifyPointerAxisDiscrete', 'ui', [axis === 'vertical' ? 0 : 1, steps]);
  }

  /** Smooth scrolling by pixels, ended as a finger lifted from a touchpad. */
  async glide(dx: number, dy: number): Promise<void> {
    await this.notify('NotifyPointerAxis', 'ddu', [dx, dy, 0]);
    await this.notify('NotifyPointerAxis', 'ddu', [0, 0, 1]);
  }

  keysym(keysym: number, down: boolean): Promise<void> {
    return this.notify('NotifyKeyboardKeysym', 'ub', [keysym, down]);
  }

  /** The windows, bottom of the stacking first, from macpilot's GNOME Shell extension. */
  async windows(): Promise<GnomeWindow[]> {
    const [json] = (await this.windowsCall('List')) as [string];
    return JSON.parse(json) as GnomeWindow[];
  }

  async windowsCall(member: string, signature?: string, body?: unknown[]): Promise<unknown[]> {
    try {
      return await this.bus.call(WINDOWS_SERVICE, WINDOWS_PATH, WINDOWS_SERVICE, member, signature, body);
    } catch (error) {
      if (error instanceof DBusCallError && /ServiceUnknown|NameHasNoOwner/.test(error.type)) {
        throw notAvailable(
          "GNOME Shell tells no program where windows are, and macpilot's GNOME Shell extension is not running",
          `copy ${EXTENSION_FOLDER} to ~/.local/share/gnome-shell/extensions/, log out and in, then run \`gnome-extensions enable ${EXTENSION_UUID}\` (docs/linux-sessions.md)`,
        );
      }
      throw error;
    }
  }

  /** Calls `listener` at each change of the clipboard's owner; returns the function that stops it. */
  async onClipboardChange(listener: () => void): Promise<() => void> {
    await this.match(`type='signal',interface='${WINDOWS_SERVICE}',member='ClipboardChanged'`);
    return this.bus.onSignal((signal) => {
      if (signal.iface === WINDOWS_SERVICE && signal.member === 'ClipboardChanged') listener();
    });
  }

  close(): void {
    void this.remoteOpening
      ?.then((remote) => this.bus.call(REMOTE_DESKTOP, remote.session, `${REMOTE_DESKTOP}.Session`, 'Stop'))
      .catch(() => {})
      .finally(() => this.bus.close());
    if (!this.remoteOpening) this.bus.close();
  }
}

/** DisplayConfig's physical monitor: spec (connector, vendor, product, serial), modes, properties. */
type PhysicalMonitor = [[string, string, string, string], Mode[], Record<string, unknown>];
/** A mode: id, width, height, refresh rate, preferred scale, supported scales, properties. */
type Mode = [string, number, number, number, number, number[], Record<string, unknown>];
/** A logical monitor: x, y, scale, transform, primary, the physical monitors' specs, properties. */
type LogicalMonitor = [
  number,
  number,
  number,
  number,
  boolean,
  [string, string, string, string][],
  Record<string, unknown>,
];
