/**
 * What every method needs: the accessibility bus and the X display, each connected once on first use, per-app
 * facts that do not change while the app runs (pid, toolkit), and the elements' top-level windows, remembered
 * only while the app's events can say when they change.
 */
import { existsSync } from 'node:fs';
import {
  HelperErrorCode,
  type NotificationName,
  type NotificationParams,
} from '../../../helper-client/protocol.js';
import { getProperty } from './atspi/atspi.js';
import { type AssistiveSwitch, settleAssistiveSwitch } from './atspi/assistive.js';
import { type Bus, connectAccessibilityBus, pidOf } from '../dbus/bus.js';
import { HelperFailure } from '../errors.js';
import { handleOf, type Ref } from './atspi/handles.js';
import { X11 } from './x11/ewmh.js';
import { SwayDesk } from './wayland/sway-desk.js';
import { SwayIpc, swaySocket } from './wayland/sway-ipc.js';
import { RemoteDesk } from './remote/remote-desk.js';
import { GnomeShell } from './gnome/gnome-shell.js';
import { KWinShell } from './kde/kwin-shell.js';

/**
 * The display server the helper drives: X11 (an X session, or XWayland apps where the Wayland compositor has
 * no route of macpilot's); sway, through its IPC, a virtual pointer and wtype; GNOME's mutter, through its
 * RemoteDesktop and ScreenCast and macpilot's GNOME Shell extension; or KDE Plasma's KWin, through the
 * RemoteDesktop portal and KWin scripts.
 */
export type DeskKind = 'x11' | 'sway' | 'gnome' | 'kde';

export function deskKind(env: NodeJS.ProcessEnv): DeskKind {
  if (!env.WAYLAND_DISPLAY) return 'x11';
  if (swaySocket(env) !== undefined) return 'sway';
  const desktops = (env.XDG_CURRENT_DESKTOP ?? '').toUpperCase().split(':');
  if (desktops.includes('GNOME')) return 'gnome';
  return desktops.includes('KDE') ? 'kde' : 'x11';
}

/** Whether the desk is reached over the session bus: a RemoteDesktop session and the desktop's shell. */
export const remoteKind = (desk: DeskKind): boolean => desk === 'gnome' || desk === 'kde';

/** Whether the session is a Wayland compositor's, where apps' extents are relative to their windows. */
export const onWayland = (desk: DeskKind): boolean => desk === 'sway' || remoteKind(desk);

/** Sends a notification to the server. */
export type Notify = <N extends NotificationName>(name: N, params: NotificationParams<N>) => void;

export interface AppFacts {
  pid: number;
  /** GTK4 reports window-relative extents and sets SHOWING on top-level windows only. */
  gtk4: boolean;
  /** Firefox (and Thunderbird): a web select chosen through Selection changes without the page hearing it. */
  gecko?: boolean;
  /** In a Wayland session, an X11 app on XWayland: its extents are on the X screen, which is the layout. */
  xwayland?: boolean;
}

/** Enough for every element of a large app; past it the app's frames start over. */
const REMEMBERED_FRAMES = 20_000;
/** Events after which an app's elements may sit in another window: its remembered frames are forgotten. */
const MOVES_ELEMENTS = /^(object:children-changed|object:property-change:accessible-parent|window:)/;

export class Session {
  private bus: Promise<Bus> | undefined;
  private display: Promise<X11> | undefined;
  private swayDesk: Promise<SwayDesk> | undefined;
  private busDesk: Promise<RemoteDesk> | undefined;
  private readonly apps = new Map<string, Promise<AppFacts>>();
  /** Each app's last known name and pid, by bus name, for naming an app that is too busy to answer. */
  readonly appNames = new Map<string, { name: string; pid: number }>();
  /** The desktop's accessibility switch as the first connection found and set it (undefined: not connected). */
  assistive: AssistiveSwitch | undefined;
  /** Set when the session closes or loses a connection: whatever ends after that is no news. */
  private closing = false;
  /** Each element's top-level window, by app bus name, then by handle (see tree.ts topFrame). */
  private readonly frames = new Map<string, Map<string, Promise<Ref | undefined>>>();
  /** What else to end when the session closes (a recording's own X connection). */
  private readonly closers = new Set<() => void>();
  /** Apps whose events this helper hears (after observe.start), by bus name. */
  private readonly heard = new Set<string>();

  /**
   * An event of `kind` from the app `bus`. From its first event on, the app's elements' top-level windows are
   * remembered, until an event says an element may have moved or a window came or went.
   */
  heardFrom(bus: string, kind: string): void {
    this.heard.add(bus);
    if (MOVES_ELEMENTS.test(kind)) this.frames.delete(bus);
  }

  /**
   * The element's top-level window, found by `find` or remembered from an earlier find: only for an app whose
   * events this helper hears, since only they can say that the answer went stale.
   */
  topFrame(ref: Ref, find: () => Promise<Ref | undefined>): Promise<Ref | undefined> {
    if (!this.heard.has(ref.bus)) return find();
    const frames = this.frames.get(ref.bus) ?? new Map<string, Promise<Ref | undefined>>();
    this.frames.set(ref.bus, frames);
    const handle = handleOf(ref);
    const known = frames.get(handle);
    if (known) return known;
    if (frames.size >= REMEMBERED_FRAMES) frames.clear();
    const found = find();
    frames.set(handle, found);
    found.catch(() => frames.delete(handle));
    return found;
  }

  /** Which display server input, capture, windows and the clipboard go through. */
  readonly desk: DeskKind;

  constructor(
    readonly env: NodeJS.ProcessEnv,
    /** Sends notifications (observe.changed) to the server. */
    readonly notify: Notify,
    /** Hears, once, that the X display or the accessibility bus closed its connection. */
    private readonly lost: (what: string) => void,
  ) {
    this.desk = deskKind(env);
  }

  /** Once per session: a connection that breaks leaves requests on it unanswered, so nothing is reused. */
  private connectionLost(what: string): void {
    if (this.closing) return;
    this.closing = true;
    this.lost(what);
  }

  a11y(): Promise<Bus> {
    if (!this.bus) {
      const connecting = connectAccessibilityBus(
        this.env,
        async (sessionBus) => {
          this.assistive ??= await settleAssistiveSwitch(sessionBus, this.env);
        },
        (destination) => {
          const app = this.appNames.get(destination);
          return app && `${app.name} (pid ${app.pid})`;
        },
      );
      this.bus = connecting;
      void connecting.then(
        (bus) => bus.onClose(() => this.connectionLost('the accessibility bus closed its connection')),
        () => {},
      );
      connecting.catch(() => {
        if (this.bus === connecting) this.bus = undefined;
      });
    }
    return this.bus;
  }

  x11(): Promise<X11> {
    if (!this.display) {
      const name = this.env.DISPLAY;
      const connecting = name
        ? X11.connect(name).catch((error: Error) => {
            throw new HelperFailure(
              HelperErrorCode.NotAvailable,
              `cannot connect to the X display ${name}: ${whyNoDisplay(name, error)}`,
              'check that DISPLAY names a running X server this user may use (xauth)',
            );
          })
        : Promise.reject(
            new HelperFailure(
              HelperErrorCode.NotAvailable,
              'no X display (DISPLAY is not set)',
              'run macpilot inside an X11 session',
            ),
          );
      this.display = connecting;
      void connecting.then(
        (x11) => x11.onClose(() => this.connectionLost('the X display closed its connection')),
        () => {},
      );
      connecting.catch(() => {
        if (this.display === connecting) this.display = undefined;
      });
    }
    return this.display;
  }

  /** The sway session, connected once: its IPC, then a pointer and a keyboard as input needs them. */
  sway(): Promise<SwayDesk> {
    if (!this.swayDesk) {
      const path = swaySocket(this.env);
      const connecting = (
        path === undefined ? Promise.reject(new Error('SWAYSOCK is not set')) : SwayIpc.open(path)
      ).then(
        async (ipc) => {
          ipc.onClose(() => this.connectionLost('sway closed its IPC connection'));
          const desk = new SwayDesk(ipc, this.env);
          // Without a keyboard on the seat no window has keyboard focus, and no element reads as focused.
          await desk.keyboard().catch(() => {});
          return desk;
        },
        (error: Error) => {
          throw new HelperFailure(
            HelperErrorCode.NotAvailable,
            `cannot reach sway's IPC socket: ${error.message}`,
            'run macpilot inside the sway session (SWAYSOCK and WAYLAND_DISPLAY as sway sets them)',
          );
        },
      );
      this.swayDesk = connecting;
      connecting.catch(() => {
        if (this.swayDesk === connecting) this.swayDesk = undefined;
      });
    }
    return this.swayDesk;
  }

  /** The GNOME or KDE Plasma session, connected once on the session bus. */
  remoteDesk(): Promise<RemoteDesk> {
    if (!this.busDesk) {
      const shellOf =
        this.desk === 'kde' ? (bus: Bus) => new KWinShell(bus) : (bus: Bus) => new GnomeShell(bus);
      const connecting = RemoteDesk.open(this.env, shellOf).then(async (desk) => {
        // Its virtual keyboard is the seat's keyboard where there is no other (a headless session): without
        // one no window has keyboard focus, and no element reads as focused. The portal asks the person
        // first: its session waits for a call that needs it.
        if ((await desk.route()) === 'mutter') await desk.remote().catch(() => {});
        return desk;
      });
      this.busDesk = connecting;
      connecting.catch(() => {
        if (this.busDesk === connecting) this.busDesk = undefined;
      });
    }
    return this.busDesk;
  }

  /** GNOME's shell: macpilot's extension, which also holds the clipboard. */
  async gnomeShell(): Promise<GnomeShell> {
    const { shell } = await this.remoteDesk();
    if (!(shell instanceof GnomeShell)) throw new Error('not a GNOME session');
    return shell;
  }

  /** The X display if the session has connected to it already; never connects. */
  connectedX11(): Promise<X11 | undefined> {
    return this.display?.catch(() => undefined) ?? Promise.resolve(undefined);
  }

  /** X11, or undefined when there is no display: window facts are then simply unknown. */
  async x11IfAny(): Promise<X11 | undefined> {
    return this.x11().catch(() => undefined);
  }

  /**
   * The app's facts, read once. A toolkit that could not be read (an app just starting answers before its
   * accessibility is set up) is not remembered: the next call reads it again, so a GTK4 app seen first through
   * an early event is not taken for GTK3 for the rest of its life.
   */
  app(busName: string): Promise<AppFacts> {
    const known = this.apps.get(busName);
    if (known) return known;
    const loading = this.loadApp(busName);
    const facts = loading.then((loaded) => loaded.facts);
    this.apps.set(busName, facts);
    const forget = () => {
      if (this.apps.get(busName) === facts) this.apps.delete(busName);
    };
    loading.then((loaded) => loaded.toolkitKnown || forget(), forget);
    return facts;
  }

  private async loadApp(busName: string): Promise<{ facts: AppFacts; toolkitKnown: boolean }> {
    const bus = await this.a11y();
    const root = { bus: busName, path: '/org/a11y/atspi/accessible/root' };
    const read = (name: string) =>
      getProperty(bus, root, 'org.a11y.atspi.Application', name).then(String, () => '');
    const [pid, toolkit, version] = await Promise.all([
      pidOf(bus, busName),
      read('ToolkitName'),
      read('Version'),
    ]);
    const gtk4 = toolkit.toLowerCase() === 'gtk' && version.startsWith('4.');
    const known = toolkit !== '' && version !== '';
    const gecko = toolkit.toLowerCase() === 'gecko' ? { gecko: true } : {};
    if (this.desk === 'x11') return { facts: { pid, gtk4, ...gecko }, toolkitKnown: known };
    // Which server the app is on shows in the compositor's windows once it has one; until then it is read again.
    const servers = await this.serversOf(pid);
    return {
      facts: { pid, gtk4, ...gecko, xwayland: servers.includes(true) },
      toolkitKnown: known && servers.length > 0,
    };
  }

  /** For each window of `pid` the compositor lists, whether it is an X11 window on XWayland. */
  private async serversOf(pid: number): Promise<boolean[]> {
    if (remoteKind(this.desk)) {
      const windows = await (await this.remoteDesk()).shell.windows().catch(() => []);
      return windows.filter((w) => w.pid === pid).map((w) => w.xwayland);
    }
    const windows = await (await this.sway()).windows().catch(() => []);
    return windows.filter((w) => w.node.pid === pid).map((w) => w.node.shell === 'xwayland');
  }

  /** `closer` runs when the session closes; the returned function takes it back. */
  onClose(closer: () => void): () => void {
    this.closers.add(closer);
    return () => this.closers.delete(closer);
  }

  close(): void {
    this.closing = true;
    for (const closer of this.closers) closer();
    void this.bus?.then((b) => b.close()).catch(() => {});
    void this.display?.then((d) => d.close()).catch(() => {});
    void this.swayDesk?.then((d) => d.close()).catch(() => {});
    void this.busDesk?.then((d) => d.close()).catch(() => {});
  }
}

/**
 * Why a display did not answer, in the person's terms: the X library falls back to TCP when a local display's
 * socket is missing, and its "ECONNREFUSED 127.0.0.1:6077" hides that no X server runs there.
 */
function whyNoDisplay(name: string, error: Error): string {
  const local = /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(name);
  const socket = local ? `/tmp/.X11-unix/X${local[1]}` : undefined;
  if (socket && !existsSync(socket)) return `no X server runs on it: ${socket} does not exist`;
  return error.message;
}
