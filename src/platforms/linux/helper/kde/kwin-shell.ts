/**
 * KDE Plasma 6 as the RemoteDesktop desk sees it: KWin tells no other program where windows are, but it runs
 * scripts sent over D-Bus (org.kde.kwin.Scripting), and a script may call D-Bus. So each question is a small
 * script of macpilot's own, loaded under a name used once, run, and unloaded; it reads KWin's workspace (the
 * stacking order, the active window, the screens) or acts on one window, and answers by calling this
 * connection back with JSON. Only KWin's answers are taken. The script's words are macpilot's; what varies (a
 * window id, a rectangle) enters it as JSON data.
 *
 * The scripts speak KWin 6's API and KWin 5's where the names differ. The KDE suite runs them on Debian 12's
 * headless KWin 5.27; KWin 6's side, which Debian 12 cannot run, is checked against its documented API
 * (test/unit/platforms/linux/helper/kde).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bounds, HelperErrorCode } from '../../../../helper-client/protocol.js';
import type { Bus } from '../../dbus/bus.js';
import { DBusCallError, HelperFailure } from '../../errors.js';
import type { Monitor, Shell, ShellWindow } from '../remote/shell.js';

export const KWIN = 'org.kde.KWin';
const SCRIPTING = 'org.kde.kwin.Scripting';
const SCRIPT = 'org.kde.kwin.Script';
/** Where this connection hears the scripts' answers. */
export const ANSWER_PATH = '/org/macpilot/KWinAnswer';
export const ANSWER_IFACE = 'org.macpilot.KWinAnswer';
/** How long a script gets to answer. */
const ANSWER_WAIT_MS = 5000;

/**
 * Shared by every script: the windows bottom first, the active one, a window by its id, and a rectangle as plain
 * numbers. KWin 6 names windows `window` (stackingOrder, activeWindow, windowList); KWin 5 named them `client`
 * (activeClient, clientList) and gave scripts no stacking order, so there the active window is put last.
 */
const PRELUDE = `
function rect(r) { return { x: r.x, y: r.y, width: r.width, height: r.height }; }
function activeOne() { return workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient; }
function stacked() {
  if (workspace.stackingOrder !== undefined) return workspace.stackingOrder;
  var active = activeOne();
  var all = workspace.windowList !== undefined ? workspace.windowList() : workspace.clientList();
  return all.filter(function (w) { return w !== active; }).concat(active ? [active] : []);
}
function byId(id) {
  var list = stacked();
  for (var i = 0; i < list.length; i++) if (String(list[i].internalId) === id) return list[i];
  throw new Error('no window ' + id);
}
function screens() {
  if (workspace.screens !== undefined) {
    var order = workspace.screenOrder || workspace.screens;
    return order.map(function (o) {
      return { name: o.name, maker: [o.manufacturer, o.model].filter(Boolean).join(' '),
        geometry: rect(o.geometry), scale: o.devicePixelRatio };
    });
  }
  var found = [];
  for (var i = 0; i < workspace.numScreens; i++) {
    found.push({ name: 'screen ' + i, maker: '', scale: 1,
      geometry: rect(workspace.clientArea(KWin.ScreenArea, i, workspace.currentDesktop)) });
  }
  return found;
}`;

/** The scripts' bodies: each reads `args` and returns what it found. */
const BODIES = {
  windows: `
  var active = activeOne();
  return stacked()
    .filter(function (w) { return w.normalWindow || w.dialog; })
    .map(function (w) {
      return {
        id: String(w.internalId), title: w.caption, pid: w.pid, wmClass: w.resourceClass,
        frame: rect(w.frameGeometry), buffer: rect(w.bufferGeometry),
        focused: w === active, minimized: w.minimized, xwayland: w.windowId !== undefined && w.windowId > 0
      };
    });`,
  screens: `
  return screens();`,
  activate: `
  var w = byId(args.id);
  if (w.minimized) w.minimized = false;
  if (workspace.activeWindow !== undefined) workspace.activeWindow = w;
  else workspace.activeClient = w;
  return true;`,
  moveResize: `
  byId(args.id).frameGeometry = { x: args.x, y: args.y, width: args.width, height: args.height };
  return true;`,
  minimize: `
  byId(args.id).minimized = true;
  return true;`,
  close: `
  byId(args.id).closeWindow();
  return true;`,
} as const;

type Question = keyof typeof BODIES;

interface KWinScreen {
  name: string;
  maker: string;
  geometry: Bounds;
  scale: number;
}

/** JSON as JavaScript source: the two line separators JSON allows in strings end a line in older engines. */
const literal = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The script that asks `question` with `args` and calls `answerTo` back with `{ value }` or `{ error }`. */
export function scriptFor(question: Question, args: object, answerTo: string, token: string): string {
  return `${PRELUDE}
(function () {
  var answer;
  try {
    answer = { value: (function (args) {${BODIES[question]}
    })(${literal(args)}) };
  } catch (error) {
    answer = { error: String(error) };
  }
  callDBus(${literal(answerTo)}, ${literal(ANSWER_PATH)}, ${literal(ANSWER_IFACE)}, 'Answer', ${literal(token)}, JSON.stringify(answer));
})();
`;
}

const notAvailable = (what: string, next: string) =>
  new HelperFailure(HelperErrorCode.NotAvailable, what, next);

export class KWinShell implements Shell {
  readonly desktop = 'KDE Plasma';
  readonly windowsRoute = 'KWin scripts';
  readonly portalBackend = 'xdg-desktop-portal-kde';
  private asked = 0;
  private readonly waiting = new Map<string, (answer: string) => void>();

  constructor(private readonly bus: Bus) {
    bus.onMethodCall(ANSWER_PATH, (call) => {
      const [token, answer] = call.body;
      if (call.member !== 'Answer' || typeof token !== 'string' || typeof answer !== 'string') return;
      void this.fromKWin(call.sender).then((trusted) => trusted && this.waiting.get(token)?.(answer));
    });
  }

  /** Whether `sender` is KWin itself: no other program's answer is taken for the windows. */
  private async fromKWin(sender: string): Promise<boolean> {
    const [owner] = await this.bus
      .call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetNameOwner', 's', [
        KWIN,
      ])
      .catch(() => ['']);
    return owner === sender;
  }

  async monitors(): Promise<Monitor[]> {
    const screens = (await this.ask('screens', {})) as KWinScreen[];
    // KWin 6 lists the screens in the order the person gave them, the first being the primary one.
    return screens.map((screen, i) => ({
      connector: screen.name,
      name: screen.maker || screen.name,
      bounds: screen.geometry,
      scale: screen.scale,
      primary: i === 0,
    }));
  }

  async windows(): Promise<ShellWindow[]> {
    return (await this.ask('windows', {})) as ShellWindow[];
  }

  async activate(id: string): Promise<void> {
    await this.ask('activate', { id });
  }

  async moveResize(id: string, frame: Bounds): Promise<void> {
    await this.ask('moveResize', { id, ...frame });
  }

  async minimize(id: string): Promise<void> {
    await this.ask('minimize', { id });
  }

  async close(id: string): Promise<void> {
    await this.ask('close', { id });
  }

  /** Runs the script of `question` in KWin and waits for its answer. */
  private async ask(question: Question, args: object): Promise<unknown> {
    const token = `${process.pid}-${++this.asked}`;
    const plugin = `macpilot-${token}`;
    // A folder only this user reads, made for this script and removed with it: a helper that ends abruptly
    // leaves none behind for its life.
    const folder = mkdtempSync(join(tmpdir(), 'macpilot-kwin-'));
    const file = join(folder, `${plugin}.js`);
    writeFileSync(file, scriptFor(question, args, this.bus.name, token), { mode: 0o600 });
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<string>((resolve, reject) => {
      this.waiting.set(token, resolve);
      timer = setTimeout(
        () =>
          reject(
            notAvailable(
              `KWin did not answer macpilot's script (${question}) within ${ANSWER_WAIT_MS / 1000} s`,
              'check that KWin runs scripts (System Settings, Window Management, KWin Scripts), then retry',
            ),
          ),
        ANSWER_WAIT_MS,
      );
    });
    try {
      const [id] = await this.kwin('/Scripting', SCRIPTING, 'loadScript', 'ss', [file, plugin]);
      if (typeof id !== 'number' || id < 0) {
        throw notAvailable(
          `KWin refused to load macpilot's script (${question})`,
          'check that KWin runs scripts, then retry',
        );
      }
      await this.run(id);
      const answer = JSON.parse(await answered) as { value?: unknown; error?: string };
      if (answer.error !== undefined) {
        if (/no window/.test(answer.error)) {
          throw notAvailable('the window does not exist', 'it may have closed; list the windows again');
        }
        throw new HelperFailure(
          HelperErrorCode.Failed,
          `KWin's script (${question}) failed: ${answer.error}`,
          'retry',
        );
      }
      return answer.value;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(token);
      await this.kwin('/Scripting', SCRIPTING, 'unloadScript', 's', [plugin]).catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    }
  }

  /** Runs a loaded script: KWin 6 keeps it at /Scripting/Script<id>, KWin 5 at /<id>. */
  private async run(id: number): Promise<void> {
    await this.kwin(`/Scripting/Script${id}`, SCRIPT, 'run').catch(async (error: unknown) => {
      if (!(error instanceof DBusCallError && /UnknownObject|UnknownMethod/.test(error.type))) throw error;
      await this.kwin(`/${id}`, SCRIPT, 'run');
    });
  }

  private async kwin(path: string, iface: string, member: string, signature?: string, body?: unknown[]) {
    try {
      return await this.bus.call(KWIN, path, iface, member, signature, body);
    } catch (error) {
      if (error instanceof DBusCallError && /ServiceUnknown|NameHasNoOwner/.test(error.type)) {
        throw notAvailable(
          'KWin is not on the session bus (org.kde.KWin): macpilot cannot ask where windows are',
          'run macpilot inside the KDE Plasma session (Plasma 6)',
        );
      }
      throw error;
    }
  }
}
