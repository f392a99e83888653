/** X11 window-manager facts (EWMH) over the `x11` package: client windows, their pids, activation, closing. */
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

const ANY_TYPE = 0;
/** Message source indication 2: a pager/tool acting for the user, which window managers honour at once. */
const SOURCE_PAGER = 2;

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

  /** Managed windows, bottom to top, when a window manager publishes them. */
  async clientWindows(): Promise<number[]> {
    const stacking = await this.cardinals(this.root, '_NET_CLIENT_LIST_STACKING');
    return stacking.length > 0 ? stacking : this.cardinals(this.root, '_NET_CLIENT_LIST');
  }

  async windows(): Promise<Window[]> {
    const ids = await this.clientWindows();
    return Promise.all(
      ids.map(async (id) => {
        const [pid, title] = await Promise.all([
          this.cardinals(id, '_NET_WM_PID'),
          this.property(id, '_NET_WM_NAME'),
        ]);
        return { id, pid: pid[0], title: title?.toString('utf8') ?? '' };
      }),
    );
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

  /** A request that answers after every earlier one has been processed. */
  async sync(): Promise<void> {
    await this.activeWindow();
  }
}
