/**
 * What every method needs: the accessibility bus and the X display, each connected once on first use, and
 * per-app facts that do not change while the app runs (pid, toolkit).
 */
import { HelperErrorCode, type NotificationName, type NotificationParams } from '../../../helper/protocol.js';
import { getProperty } from './atspi.js';
import { type Bus, connectAccessibilityBus, pidOf } from '../dbus/bus.js';
import { HelperFailure } from '../errors.js';
import type { Ref } from './handles.js';
import { X11 } from './ewmh.js';

/** Sends a notification to the server. */
export type Notify = <N extends NotificationName>(name: N, params: NotificationParams<N>) => void;

export interface AppFacts {
  pid: number;
  /** GTK4 reports window-relative extents and sets SHOWING on top-level windows only. */
  gtk4: boolean;
}

/** Enough for every element of a few large apps; past it the cache starts over. */
const REMEMBERED_FRAMES = 20_000;

export class Session {
  private bus: Promise<Bus> | undefined;
  private display: Promise<X11> | undefined;
  private readonly apps = new Map<string, Promise<AppFacts>>();
  /** Each app's last known name, by bus name, for listing an app that is too busy to answer. */
  readonly appNames = new Map<string, string>();
  /** Set when the session closes or loses a connection: whatever ends after that is no news. */
  private closing = false;
  /** Each element's top-level window, by handle (see tree.ts topFrame). */
  readonly topFrames = new Map<string, Promise<Ref | undefined>>();

  rememberTopFrame(handle: string, frame: Promise<Ref | undefined>): void {
    if (this.topFrames.size >= REMEMBERED_FRAMES) this.topFrames.clear();
    this.topFrames.set(handle, frame);
    frame.catch(() => this.topFrames.delete(handle));
  }

  constructor(
    readonly env: NodeJS.ProcessEnv,
    /** Sends notifications (observe.changed) to the server. */
    readonly notify: Notify,
    /** Hears, once, that the X display or the accessibility bus closed its connection. */
    private readonly lost: (what: string) => void,
  ) {}

  /** Once per session: a connection that breaks leaves requests on it unanswered, so nothing is reused. */
  private connectionLost(what: string): void {
    if (this.closing) return;
    this.closing = true;
    this.lost(what);
  }

  a11y(): Promise<Bus> {
    if (!this.bus) {
      const connecting = connectAccessibilityBus(this.env);
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
              `cannot connect to the X display ${name}: ${error.message}`,
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
    return { facts: { pid, gtk4 }, toolkitKnown: toolkit !== '' && version !== '' };
  }

  close(): void {
    this.closing = true;
    void this.bus?.then((b) => b.close()).catch(() => {});
    void this.display?.then((d) => d.close()).catch(() => {});
  }
}
