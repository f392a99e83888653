/**
 * Top-level windows as the window manager sees them: list, focus, move, resize, minimize, restore, close.
 * A window is named by its id (from list_windows), or by app and/or title with an index among the matches
 * (front to back, minimized windows included). Every operation answers with the window's state afterwards.
 */
import { MacpilotError } from '../../errors.js';
import type { WindowInfo } from '../../helper-client/protocol.js';
import type { Kernel } from '../kernel/kernel.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { ActionResult, WindowsResult } from '../kernel/results.js';
import { ofApp, type WindowTarget, windowsMatching, windowsPicked } from '../kernel/window-target.js';
import {
  hiddenWindowsNote,
  noWindowWithId,
  own,
  windowsListed,
  windowStateWords,
  windowWords,
  words,
} from '../kernel/words.js';

/** The windows of the app named, or all of them when it has none (or none is named): what a miss lists. */
function ofAppOrAll(windows: readonly WindowInfo[], app: string | undefined): readonly WindowInfo[] {
  const byApp = app === undefined ? windows : ofApp(windows, app);
  return byApp.length > 0 ? byApp : windows;
}

const describe = (t: WindowTarget): string =>
  t.id !== undefined
    ? `window ${t.id}`
    : [
        t.app === undefined ? 'the window' : `the window of ${JSON.stringify(t.app)}`,
        t.title === undefined ? '' : `titled ${JSON.stringify(t.title)}`,
        t.index === undefined ? '' : `[${t.index}]`,
      ]
        .filter(Boolean)
        .join(' ');

export class Windows {
  constructor(private readonly kernel: Kernel) {}

  async list(
    options: { app?: string; includeMinimized?: boolean },
    call?: CallOptions,
  ): Promise<WindowsResult> {
    return this.kernel.guard('list the windows', async () => {
      const includeMinimized = options.includeMinimized ?? false;
      const listed = await this.kernel.resolver.visibleWindows(includeMinimized, call, true);
      const { windows: all, offLimits } = listed;
      // The console's windows are the person's: not counted among what their lists hide.
      const hidden = listed.hidden.filter((w) => !listed.personsOwn.includes(w));
      const windows = options.app === undefined ? all : ofApp(all, options.app);
      // No window of it: an app that is not running (or is off limits) is refused, as every tool naming it is.
      if (options.app !== undefined && windows.length === 0)
        await this.kernel.resolver.app(options.app, call);
      const appsWithWindows = [...new Set(all.map((w) => w.app).filter((app) => app !== ''))];
      return {
        kind: 'windows',
        windows,
        app: options.app,
        includeMinimized,
        appsWithWindows,
        // Of one app's windows, none is hidden (a hidden app's name is answered as if it did not run).
        hidden: options.app === undefined ? hidden.length : 0,
        hiddenBy:
          options.app === undefined
            ? this.kernel.resolver.hiddenBy(hidden.map((w) => ({ name: w.app, pid: w.pid })))
            : [],
        offLimits: offLimits.filter((id) => windows.some((w) => w.id === id)),
      };
    });
  }

  async focus(target: WindowTarget, call?: CallOptions): Promise<ActionResult> {
    return this.operate(target, 'focus', call, async (w) => {
      const { window } = await this.kernel.port.call('windows.focus', { id: w.id }, call);
      const done = window.focused
        ? words`Focused ${windowStateWords(window)}`
        : words`Asked to focus ${windowWords(window)}, but the window manager did not make it active (a modal dialog of its app may hold the focus).\nNow: ${windowStateWords(window)}`;
      return { kind: 'action', done, window };
    });
  }

  async move(target: WindowTarget, x: number, y: number, call?: CallOptions): Promise<ActionResult> {
    return this.operate(target, 'move', call, async (w) => {
      const { window } = await this.kernel.port.call('windows.move', { id: w.id, to: { x, y } }, call);
      const b = window.bounds;
      const missed = b.x !== x || b.y !== y ? `; asked for x=${x} y=${y}, the window manager placed it` : '';
      return {
        kind: 'action',
        done: words`Moved ${windowWords(window)}${own(missed)}.\nNow: ${windowStateWords(window)}`,
        window,
      };
    });
  }

  async resize(
    target: WindowTarget,
    width: number,
    height: number,
    call?: CallOptions,
  ): Promise<ActionResult> {
    return this.operate(target, 'resize', call, async (w) => {
      const params = { id: w.id, width, height };
      const { window } = await this.kernel.port.call('windows.resize', params, call);
      const b = window.bounds;
      const missed =
        b.width !== width || b.height !== height
          ? `; asked for ${width}x${height}, the app or window manager kept it within its limits`
          : '';
      return {
        kind: 'action',
        done: words`Resized ${windowWords(window)}${own(missed)}.\nNow: ${windowStateWords(window)}`,
        window,
      };
    });
  }

  async minimize(target: WindowTarget, call?: CallOptions): Promise<ActionResult> {
    return this.operate(target, 'minimize', call, async (w) => {
      const { window } = await this.kernel.port.call('windows.minimize', { id: w.id }, call);
      const done = window.minimized
        ? words`Minimized ${windowStateWords(window)}`
        : words`Asked to minimize ${windowWords(window)}, but it is not minimized.\nNow: ${windowStateWords(window)}`;
      return { kind: 'action', done, window };
    });
  }

  async restore(target: WindowTarget, call?: CallOptions): Promise<ActionResult> {
    return this.operate(target, 'restore', call, async (w) => {
      const { window } = await this.kernel.port.call('windows.restore', { id: w.id }, call);
      const done = window.minimized
        ? words`Asked to restore ${windowWords(window)}, but it is still minimized.\nNow: ${windowStateWords(window)}`
        : words`Restored ${windowStateWords(window)}`;
      return { kind: 'action', done, window };
    });
  }

  /** When the window's app is accessible, the answer also shows what changed in it (e.g. a "Save?" dialog). */
  async close(target: WindowTarget, call?: CallOptions): Promise<ActionResult> {
    return this.operate(target, 'close', call, async (w) => {
      const run = async () => {
        const { closed } = await this.kernel.port.call('windows.close', { id: w.id }, call);
        return closed
          ? words`Closed ${windowWords(w)}.`
          : words`Asked ${windowWords(w)} to close, but it is still open: the app may be asking whether to save (its dialog is among the changes below, or in the app's tree).`;
      };
      const app = await this.kernel.resolver.appOf(w.pid, call).catch(() => undefined);
      const result: ActionResult = app
        ? await this.kernel.changes.observe({ app, top: undefined }, run, call)
        : { kind: 'action', done: await run() };
      return { ...result, window: w };
    });
  }

  private async operate(
    target: WindowTarget,
    verb: string,
    call: CallOptions | undefined,
    run: (window: WindowInfo) => Promise<ActionResult>,
  ): Promise<ActionResult> {
    return this.kernel.guard(`${verb} ${describe(target)}`, async () => {
      const window = await this.resolve(target, call);
      // A window listed is not one that may be acted on: a terminal's may be read, not moved or closed.
      this.kernel.gate({ name: window.app, pid: window.pid });
      const result = await run(window);
      // The window's app, for the audit log, where the answer watched none.
      return result.app ? result : { ...result, app: { name: window.app, pid: window.pid } };
    });
  }

  /** The one window a target names, or an error listing what there is. */
  async resolve(target: WindowTarget, call?: CallOptions): Promise<WindowInfo> {
    const visible = await this.kernel.resolver.visibleWindows(true, call);
    const { windows } = visible;
    // As for apps: an agent learns that hidden windows exist, never which. The console's are no list's doing.
    const hidden = visible.hidden.filter((w) => !visible.personsOwn.includes(w));
    const hiddenToo = hiddenWindowsNote(hidden.length);
    if (target.id !== undefined) {
      const found = windows.find((w) => w.id === target.id);
      if (found) return found;
      const absent = noWindowWithId(target.id, windows, hidden.length);
      await this.kernel.resolver.refuseDeniedWindow(target.id, absent, call);
      throw new MacpilotError(absent);
    }
    const matches = windowsMatching(windows, target);
    const picked = windowsPicked(matches, target.index);
    if (picked.length === 1 && picked[0]) return picked[0];
    const none = picked.length === 0;
    const failure = {
      kind: none ? 'window_not_found' : 'window_ambiguous',
      concerns: ['app', 'title', 'index'].filter(
        (name) => name in target && target[name as keyof WindowTarget] !== undefined,
      ),
      what: none
        ? `No window matches: ${describe(target)}`
        : `${matches.length} windows match ${describe(target)}, so nothing was done`,
      why: none
        ? `the windows now: ${windowsListed(ofAppOrAll(windows, target.app))}${hiddenToo}`
        : `they are, front to back: ${windowsListed(matches)}`,
      next: none
        ? 'use an id from list_windows (include_minimized: true lists minimized ones too)'
        : 'add index (0 is the front-most match) or a more specific title, or use the window id',
    };
    // A window the lists hide is refused as off limits, named by its app or its title alike. A hidden app named
    // with a title none of its windows has is still a try at that app: refused (and audited so) in the same words.
    if (matches.length === 0 && (target.title !== undefined || target.app !== undefined)) {
      const { title, app } = target;
      const named = app !== undefined ? { app } : { title };
      await this.kernel.resolver.refuseDeniedWindow(
        (w) => windowsMatching([w], named).length > 0,
        failure,
        call,
      );
    }
    throw new MacpilotError({
      ...failure,
      person: {
        next: none
          ? 'give --window a window id or part of a title that `macpilot windows` lists (--minimized lists minimized ones too)'
          : 'give --window a more specific title, or the window id `macpilot windows` lists',
      },
    });
  }
}
