/**
 * X11 window-manager facts (EWMH) over the `x11` package: client windows, their pids, titles, frames and states,
 * and the requests a pager sends a window manager (activate, move and resize, iconify, close).
 */
import * as x11 from 'x11';

export interface Window {
  id: number;
  pid: number | undefined;
  title: string;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The window manager's decorations around a client window, in pixels. */
export interface FrameExtents {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const ANY_TYPE = 0;
/** Message source indication 2: a pager/tool acting for the user, which window managers honour at once. */
const SOURCE_PAGER = 2;
/** _NET_MOVERESIZE_WINDOW flags: NorthWest gravity (x, y name the frame's top-left corner) from a pager. */
const MOVERESIZE_NORTHWEST = 1 | (SOURCE_PAGER << 12);
const MOVERESIZE_X = 1 << 8;
const MOVERESIZE_Y = 1 << 9;
const MOVERESIZE_WIDTH = 1 << 10;
const MOVERESIZE_HEIGHT = 1 << 11;
/** ICCCM WM_STATE IconicState, as WM_CHANGE_STATE asks for it. */
const ICONIC_STATE = 3;
const NO_EXTENTS: FrameExtents = { left: 0, right: 0, top: 0, bottom: 0 };

export class X11 {
  private readonly atoms = new Map<string, number>();

  private constructor(
    /** The raw connection, for modules that speak other parts of X11 (XTEST, images, selections). */
    readonly client: x11.XClient,
    readonly root: number,
  ) {}

  static connect(display: string): Promise<X11> {
    return new Promise((resolve, reject) => {
      const client = x11.createClient({ display }, (error, connected) => {
        if (error) reject(error);
        else {
          const screen = connected.screen[0];
          if (!screen) reject(new Error(`display ${display} has no screen`));
          else resolve(new X11(connected.client, screen.root));
        }
      });
      client.on('error', () => {});
    });
  }

  close(): void {
    this.client.close();
  }

  /** `listener` hears when the connection ends (the server closed it, or it broke). */
  onClose(listener: () => void): void {
    this.client.once('end', listener);
  }

  /** A request as a promise. */
  x<T>(run: (cb: (error: Error | null | undefined, result: T) => void) => void): Promise<T> {
    return new Promise((resolve, reject) =>
      run((error, result) => (error ? reject(error) : resolve(result))),
    );
  }

  async atom(name: string): Promise<number> {
    const known = this.atoms.get(name);
    if (known !== undefined) return known;
    const atom = await this.x<number>((cb) => this.client.InternAtom(false, name, cb));
    this.atoms.set(name, atom);
    return atom;
  }

  async property(window: number, name: string): Promise<Buffer | undefined> {
    try {
      const prop = await this.x<x11.Property>(async (cb) =>
        this.client.GetProperty(0, window, await this.atom(name), ANY_TYPE, 0, 65536, cb),
      );
      return prop.type === 0 ? undefined : prop.data;
    } catch {
      return undefined; // the window went away
    }
  }

  async cardinals(window: number, name: string): Promise<number[]> {
    const data = await this.property(window, name);
    const out: number[] = [];
    for (let i = 0; data && i + 4 <= data.length; i += 4) out.push(data.readUInt32LE(i));
    return out;
  }

  /**
   * Whether an EWMH window manager runs: it names its check window on the root, and the check window names
   * itself back (a stale property left by one that exited does not).
   */
  async hasWindowManager(): Promise<boolean> {
    const [check] = await this.cardinals(this.root, '_NET_SUPPORTING_WM_CHECK');
    if (!check) return false;
    const [self] = await this.cardinals(check, '_NET_SUPPORTING_WM_CHECK');
    return self === check;
  }

  /** Managed windows, bottom to top, when a window manager publishes them. */
  async clientWindows(): Promise<number[]> {
    const stacking = await this.cardinals(this.root, '_NET_CLIENT_LIST_STACKING');
    return stacking.length > 0 ? stacking : this.cardinals(this.root, '_NET_CLIENT_LIST');
  }

  async windows(): Promise<Window[]> {
    const ids = await this.clientWindows();
    return Promise.all(
      ids.map(async (id) => {
        const [pid, title] = await Promise.all([this.cardinals(id, '_NET_WM_PID'), this.title(id)]);
        return { id, pid: pid[0], title };
      }),
    );
  }

  /** _NET_WM_NAME (UTF-8), else the ICCCM WM_NAME (Latin-1). */
  async title(window: number): Promise<string> {
    const [utf8, legacy] = await Promise.all([
      this.property(window, '_NET_WM_NAME'),
      this.property(window, 'WM_NAME'),
    ]);
    return utf8?.toString('utf8') ?? legacy?.toString('latin1') ?? '';
  }

  /**
   * The app's name for itself, from WM_CLASS: its class ("Chromium", "XTerm"), else its instance (which may carry
   * more, "chromium (/home/ann/profile)").
   */
  async className(window: number): Promise<string> {
    const data = await this.property(window, 'WM_CLASS');
    const [instance = '', windowClass = ''] = data?.toString('latin1').split('\0') ?? [];
    return windowClass || instance;
  }

  async frameExtents(window: number): Promise<FrameExtents> {
    const [left, right, top, bottom] = await this.cardinals(window, '_NET_FRAME_EXTENTS');
    if (left === undefined || right === undefined || top === undefined || bottom === undefined) {
      return NO_EXTENTS;
    }
    return { left, right, top, bottom };
  }

  /** The window's rectangle in root coordinates with the window manager's frame around it. */
  async frameRect(window: number): Promise<Rect | undefined> {
    const [rect, e] = await Promise.all([this.rect(window), this.frameExtents(window)]);
    if (!rect) return undefined;
    return {
      x: rect.x - e.left,
      y: rect.y - e.top,
      width: rect.width + e.left + e.right,
      height: rect.height + e.top + e.bottom,
    };
  }

  /** Whether _NET_WM_STATE lists this state atom, e.g. _NET_WM_STATE_HIDDEN. */
  async hasState(window: number, state: string): Promise<boolean> {
    const [states, wanted] = await Promise.all([this.cardinals(window, '_NET_WM_STATE'), this.atom(state)]);
    return states.includes(wanted);
  }

  async windowsOf(pid: number): Promise<Window[]> {
    return (await this.windows()).filter((w) => w.pid === pid);
  }

  async activeWindow(): Promise<number | undefined> {
    const [id] = await this.cardinals(this.root, '_NET_ACTIVE_WINDOW');
    return id ? id : undefined;
  }

  async activePid(): Promise<number | undefined> {
    const active = await this.activeWindow();
    return active === undefined ? undefined : (await this.cardinals(active, '_NET_WM_PID'))[0];
  }

  /** The window's rectangle in root coordinates. */
  async rect(window: number): Promise<Rect | undefined> {
    try {
      const [geometry, origin] = await Promise.all([
        this.x<x11.Geometry>((cb) => this.client.GetGeometry(window, cb)),
        this.x<x11.Translated>((cb) => this.client.TranslateCoordinates(window, this.root, 0, 0, cb)),
      ]);
      return { x: origin.destX, y: origin.destY, width: geometry.width, height: geometry.height };
    } catch {
      return undefined;
    }
  }

  async activate(window: number): Promise<void> {
    this.client.SendClientMessage(this.root, window, await this.atom('_NET_ACTIVE_WINDOW'), 32, [
      SOURCE_PAGER,
      0,
      0,
      0,
      0,
    ]);
  }

  async closeWindow(window: number): Promise<void> {
    this.client.SendClientMessage(this.root, window, await this.atom('_NET_CLOSE_WINDOW'), 32, [
      0,
      SOURCE_PAGER,
      0,
      0,
      0,
    ]);
  }

  /**
   * Ask the window manager to place the frame's top-left corner at x, y and to size the frame (decorations
   * included) to width x height; absent fields stay as they are.
   */
  async moveResize(window: number, frame: Partial<Rect>): Promise<void> {
    const e = await this.frameExtents(window);
    const flags =
      MOVERESIZE_NORTHWEST |
      (frame.x === undefined ? 0 : MOVERESIZE_X) |
      (frame.y === undefined ? 0 : MOVERESIZE_Y) |
      (frame.width === undefined ? 0 : MOVERESIZE_WIDTH) |
      (frame.height === undefined ? 0 : MOVERESIZE_HEIGHT);
    // The message carries the client's size: the frame's minus the decorations.
    const width = Math.max(1, (frame.width ?? 0) - e.left - e.right);
    const height = Math.max(1, (frame.height ?? 0) - e.top - e.bottom);
    this.client.SendClientMessage(this.root, window, await this.atom('_NET_MOVERESIZE_WINDOW'), 32, [
      flags,
      frame.x ?? 0,
      frame.y ?? 0,
      width,
      height,
    ]);
  }

  async iconify(window: number): Promise<void> {
    this.client.SendClientMessage(this.root, window, await this.atom('WM_CHANGE_STATE'), 32, [
      ICONIC_STATE,
      0,
      0,
      0,
      0,
    ]);
  }

  /** A request that answers after every earlier one has been processed. */
  async sync(): Promise<void> {
    await this.activeWindow();
  }
}
