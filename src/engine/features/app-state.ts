/**
 * What the desktop and one app are doing, in a glance: the apps an agent may read with their windows and a word
 * for their state, and an app's windows, open dialog, focused element and menu bar. What the observation front
 * ends (MCP resources, the CLI) read; apps the policy refuses for reading are left out, never shown.
 */
import { HelperError, type CallOptions } from '../../helper-client/errors.js';
import { HelperErrorCode } from '../../helper-client/protocol.js';
import type { AppInfo, WindowInfo } from '../../helper-client/protocol.js';
import type { Elements } from './elements.js';
import { appWalkStart, type Kernel } from '../kernel/kernel.js';
import type { Menus } from './menus.js';
import { BUSY } from '../reading/patterns.js';
import { roleOf } from '../kernel/roles.js';
import type { UiReader } from './ui-reading.js';
import type {
  UiReading,
  AppActivity,
  AppOverview,
  DesktopResult,
  AppStateResult,
} from '../kernel/results.js';

/** An app that does not answer a one-element read this fast is busy (a walk of it would only wait longer). */
export const BUSY_AFTER_MS = 500;
/** What the state reads of an app's tree to see its patterns: enough for dialogs, forms and editors. */
const STATE_WALK = { depth: 20, maxNodes: 3_000, includeHidden: false, maxValueLength: 200 };

const activity = (app: AppInfo, windows: readonly WindowInfo[]): AppActivity => {
  if (app.active) return 'active';
  if (windows.some((w) => !w.minimized)) return 'background';
  return windows.length > 0 ? 'minimized' : 'windowless';
};

export class AppStates {
  constructor(
    private readonly kernel: Kernel,
    private readonly elements: Elements,
    private readonly menus: Menus,
    private readonly reader: UiReader,
  ) {}

  /** The running apps the policy lets the current call read, with their windows (minimized ones too). */
  async desktop(call?: CallOptions): Promise<DesktopResult> {
    return this.kernel.guard('list the running apps', async () => {
      // The windows listed once, for the apps' overviews and for the apps without a tree alike.
      const listed = await this.kernel.resolver.visibleWindows(true, call, true);
      const { windows } = listed;
      const { apps, hidden, hiddenBy, offLimits } = await this.kernel.resolver.visibleApps(call, [
        ...windows,
        ...listed.hidden,
      ]);
      const overviews = apps.map((app) => this.overview(app, windows));
      return { kind: 'desktop', apps: overviews, hidden, hiddenBy, offLimits };
    });
  }

  /** One app's windows, dialog, focused element and menu bar. */
  async of(name: string, call?: CallOptions): Promise<AppStateResult> {
    const app = await this.kernel.guard('find the app', () => this.kernel.resolver.app(name, call));
    return this.kernel.guard(`read the state of "${app.name}"`, async () => {
      const [{ windows: all }, top, focused, menus, ui] = await Promise.all([
        this.kernel.resolver.visibleWindows(true, call),
        this.kernel.resolver.logicalChildren(app.id, call),
        this.elements.focused(app.name, call).catch(() => undefined),
        this.menus.list(app.name, undefined, 1, call).catch(() => undefined),
        this.reading(app, call),
      ]);
      const { state, windows } = this.overview(app, all);
      const dialog = top.find((child) => ['dialog', 'alert'].includes(roleOf(child)));
      return {
        kind: 'app-state',
        app,
        state,
        windows,
        ...(dialog ? { dialog: { role: roleOf(dialog), title: dialog.name } } : {}),
        ...(focused?.node ? { focused: focused.node } : {}),
        ...(menus ? { menuBar: menus.lines.map((line) => line.node.info.name) } : {}),
        ui,
      };
    });
  }

  /** The app's patterns and state: busy when a one-element read takes longer than BUSY_AFTER_MS. */
  private async reading(app: AppInfo, call?: CallOptions): Promise<UiReading> {
    try {
      await this.kernel.port.call(
        'ax.element',
        { id: app.id, maxValueLength: 0 },
        { ...call, timeoutMs: BUSY_AFTER_MS },
      );
    } catch (error) {
      if (error instanceof HelperError && error.code === HelperErrorCode.Timeout) return BUSY;
      throw error;
    }
    const start = appWalkStart(app, this.kernel.resolver.rootPath(app));
    const { tree } = await this.kernel.walk(start, STATE_WALK, call);
    return this.reader.read(tree, start.app, call);
  }

  private overview(app: AppInfo, windows: readonly WindowInfo[]): AppOverview {
    const own = windows.filter((w) => w.pid === app.pid);
    return { app, state: activity(app, own), windows: own };
  }
}
