/**
 * A Wayland desktop reached over the session bus (GNOME, KDE Plasma): a RemoteDesktop session for keys and the
 * pointer (absolute motion lands on a ScreenCast stream of a monitor, so one stream per monitor is recorded
 * beside it), those streams' PipeWire nodes for screenshots, and the desktop's shell for monitors and windows.
 * The session is Mutter's own RemoteDesktop where GNOME offers it, else the RemoteDesktop portal's. It lives
 * while this connection holds it; one that closes is opened again at the next call.
 */
import { HelperErrorCode, type MouseButton, type Point } from '../../../../helper-client/protocol.js';
import { type Bus, connectBus } from '../../dbus/bus.js';
import { DBusCallError, HelperFailure } from '../../errors.js';
import { RemotePortal, remoteDesktopVersion } from './remote-portal.js';
import type { Monitor, Shell } from './shell.js';

const REMOTE_DESKTOP = 'org.gnome.Mutter.RemoteDesktop';
const SCREEN_CAST = 'org.gnome.Mutter.ScreenCast';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
const BUS_DAEMON = 'org.freedesktop.DBus';
/** How long a new stream gets to reach PipeWire. */
const STREAM_WAIT_MS = 5000;
/** Linux input event codes (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE). */
const BUTTON_CODES: Record<MouseButton, number> = { left: 0x110, right: 0x111, middle: 0x112 };
/** ScreenCast's cursor mode: the pointer is not painted into the frames (an X11 capture has none either). */
const CURSOR_HIDDEN = 0;

export type Axis = 'vertical' | 'horizontal';

/** A monitor's stream: where absolute motion on it lands, and its PipeWire node for frames. */
export interface Stream {
  path: string;
  node: number;
  monitor: Monitor;
}

/** The route keys, the pointer and frames take: Mutter's own RemoteDesktop, or the RemoteDesktop portal. */
export type RemoteRoute = 'mutter' | 'portal';

interface Remote {
  route: RemoteRoute;
  /** Mutter's session object, or the portal's session handle. */
  session: string;
  streams: Stream[];
  /** What the person allowed through the portal (Mutter's route has both). */
  keyboard: boolean;
  pointer: boolean;
}

/** How long the person gets to answer the portal's dialog; a call waits CONSENT_CALL_MS of it, then says so. */
const CONSENT_WAIT_MS = 5 * 60_000;
const CONSENT_CALL_MS = 10_000;

const notAvailable = (what: string, next: string) =>
  new HelperFailure(HelperErrorCode.NotAvailable, what, next);

export class RemoteDesk {
  private remoteOpening: Promise<Remote> | undefined;
  private readonly portal: RemotePortal;
  /** The opening that has its session: calls then take it at once, with no wait for the person to time. */
  private remoteOpened: Promise<Remote> | undefined;
  /** Where macpilot's pointer last went: Mutter reports no pointer position to other programs. */
  lastPoint: Point | undefined;

  private constructor(
    private readonly bus: Bus,
    readonly env: NodeJS.ProcessEnv,
    /** Monitors and windows, in the desktop's words. */
    readonly shell: Shell,
  ) {
    this.portal = new RemotePortal(bus, env);
    bus.onSignal((signal) => {
      const closed =
        (signal.iface === `${REMOTE_DESKTOP}.Session` || signal.iface === 'org.freedesktop.portal.Session') &&
        signal.member === 'Closed';
      if (closed) {
        void this.remoteOpening?.then(
          (remote) => remote.session === signal.path && (this.remoteOpening = undefined),
          () => {},
        );
      }
    });
  }

  /** `shellOf`: the desktop's shell, on this desk's connection. */
  static async open(env: NodeJS.ProcessEnv, shellOf: (bus: Bus) => Shell): Promise<RemoteDesk> {
    const address = env.DBUS_SESSION_BUS_ADDRESS;
    if (!address) {
      throw notAvailable(
        'no session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
        'run macpilot inside the desktop session',
      );
    }
    const bus = await connectBus(address).catch((error: Error) => {
      throw notAvailable(
        `cannot reach the session bus: ${error.message}`,
        'run macpilot inside the desktop session',
      );
    });
    const desk = new RemoteDesk(bus, env, shellOf(bus));
    await desk.match(`type='signal',interface='${REMOTE_DESKTOP}.Session',member='Closed'`);
    await desk.match(`type='signal',interface='org.freedesktop.portal.Session',member='Closed'`);
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

  /**
   * The route this session takes: the portal when MACPILOT_PORTAL is "on", or when Mutter offers no
   * RemoteDesktop of its own and MACPILOT_PORTAL is not "off"; else Mutter's.
   */
  async route(): Promise<RemoteRoute> {
    const setting = (this.env.MACPILOT_PORTAL ?? 'auto').toLowerCase();
    if (setting === 'on') return 'portal';
    if (setting === 'off' || (await this.owned(REMOTE_DESKTOP))) return 'mutter';
    return 'portal';
  }

  /** The RemoteDesktop portal's version here (0: there is none). */
  portalVersion(): Promise<number> {
    return remoteDesktopVersion(this.bus);
  }

  /**
   * The RemoteDesktop session and a stream of each monitor, opened at the first need. Through the portal the
   * person is asked first: a call waits CONSENT_CALL_MS for their answer, then says the dialog is waiting (the
   * next call finds the session once they allowed it).
   */
  async remote(): Promise<Remote> {
    if (!this.remoteOpening) {
      const opening = this.openRemote();
      this.remoteOpening = opening;
      opening.then(
        () => (this.remoteOpened = opening),
        () => {
          if (this.remoteOpening === opening) this.remoteOpening = undefined;
        },
      );
    }
    const opening = this.remoteOpening;
    if (this.remoteOpened === opening) return opening;
    let timer: NodeJS.Timeout | undefined;
    const waiting = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new HelperFailure(
              HelperErrorCode.NotAvailable,
              'the person has not yet answered the dialog that asks them to allow remote interaction',
              'wait for the person to allow it in the dialog on screen, then call again',
            ),
          ),
        CONSENT_CALL_MS,
      );
    });
    try {
      return await Promise.race([opening, waiting]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async openRemote(): Promise<Remote> {
    if ((await this.route()) === 'portal') return this.openPortal();
    if (!(await this.owned(REMOTE_DESKTOP))) {
      throw notAvailable(
        `this ${this.shell.desktop} session offers no remote desktop of its own (nothing owns org.gnome.Mutter.RemoteDesktop), and MACPILOT_PORTAL is "off"`,
        'let macpilot use the RemoteDesktop portal (MACPILOT_PORTAL=auto), or run it inside a GNOME Wayland session (mutter 40 or later)',
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
    const monitors = await this.shell.monitors();
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
    const streams = recorded.map((r) => ({ ...r, node: nodes.get(r.path) ?? 0 }));
    return { route: 'mutter', session, streams, keyboard: true, pointer: true };
  }

  /** A session of the RemoteDesktop portal: each of its streams is matched to the monitor at its place. */
  private async openPortal(): Promise<Remote> {
    const opened = await this.portal.open(CONSENT_WAIT_MS);
    const monitors = await this.shell.monitors().catch(() => []);
    const streams = opened.streams.map((stream, i): Stream => {
      const { x, y } = stream.bounds;
      const monitor = monitors.find((m) => m.bounds.x === x && m.bounds.y === y) ?? {
        connector: `stream ${stream.node}`,
        name: `stream ${stream.node}`,
        bounds: stream.bounds,
        scale: 1,
        primary: i === 0,
      };
      return { path: '', node: stream.node, monitor: { ...monitor, bounds: stream.bounds } };
    });
    return {
      route: 'portal',
      session: opened.handle,
      streams,
      keyboard: opened.keyboard,
      pointer: opened.pointer,
    };
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
    if (!nearest)
      throw notAvailable(`the ${this.shell.desktop} session has no monitor to point at`, 'connect a monitor');
    return nearest;
  }

  /**
   * A notification to the session, in the words of its route: Mutter's session object takes them as they are;
   * the portal takes the session's handle and options first (`portal` gives its signature, body and options).
   */
  private async notify(
    device: 'keyboard' | 'pointer',
    member: string,
    mutter: [string, unknown[]],
    portal: [string, unknown[], Record<string, unknown>?],
  ): Promise<void> {
    const remote = await this.remote();
    if (!remote[device]) {
      throw new HelperFailure(
        HelperErrorCode.PermissionDenied,
        `the person shared the screen but did not allow remote interaction, so macpilot has no ${device}`,
        'only the person can allow it: quit and start the agent\'s session again, and tick "Allow remote interaction" in the dialog',
      );
    }
    const sent =
      remote.route === 'mutter'
        ? this.bus.call(REMOTE_DESKTOP, remote.session, `${REMOTE_DESKTOP}.Session`, member, ...mutter)
        : this.portal.notify(remote.session, member, portal[0], portal[1], portal[2]);
    await sent.catch((error: unknown) => {
      // A session closed meanwhile (its object is gone) is opened again at the next call.
      if (
        error instanceof DBusCallError &&
        /Unknown(Object|Method|Interface)|ServiceUnknown|portal\.Error\.NotFound/.test(error.type)
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
    await this.notify(
      'pointer',
      'NotifyPointerMotionAbsolute',
      ['sdd', [stream.path, x, y]],
      ['udd', [stream.node, x, y]],
    );
    this.lastPoint = point;
  }

  button(button: MouseButton, down: boolean): Promise<void> {
    const code = BUTTON_CODES[button];
    return this.notify('pointer', 'NotifyPointerButton', ['ib', [code, down]], ['iu', [code, down ? 1 : 0]]);
  }

  /** Wheel steps (positive: down or right). */
  wheel(axis: Axis, steps: number): Promise<void> {
    const body = [axis === 'vertical' ? 0 : 1, steps];
    return this.notify('pointer', 'NotifyPointerAxisDiscrete', ['ui', body], ['ui', body]);
  }

  /** Smooth scrolling by pixels, ended as a finger lifted from a touchpad. */
  async glide(dx: number, dy: number): Promise<void> {
    await this.notify('pointer', 'NotifyPointerAxis', ['ddu', [dx, dy, 0]], ['dd', [dx, dy]]);
    const finish = { finish: this.bus.variant('b', true) };
    await this.notify('pointer', 'NotifyPointerAxis', ['ddu', [0, 0, 1]], ['dd', [0, 0], finish]);
  }

  keysym(keysym: number, down: boolean): Promise<void> {
    return this.notify(
      'keyboard',
      'NotifyKeyboardKeysym',
      ['ub', [keysym, down]],
      ['iu', [keysym, down ? 1 : 0]],
    );
  }

  close(): void {
    void this.remoteOpening
      ?.then(async (remote) => {
        if (remote.route === 'portal') await this.portal.close(remote.session);
        else await this.bus.call(REMOTE_DESKTOP, remote.session, `${REMOTE_DESKTOP}.Session`, 'Stop');
      })
      .catch(() => {})
      .finally(() => this.bus.close());
    if (!this.remoteOpening) this.bus.close();
  }
}
