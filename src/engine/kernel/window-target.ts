/** How the window tools name a window (an id, or an app and/or a title with an index), matched against a list. */
import type { WindowInfo } from '../../helper-client/protocol.js';
import { matchByName, matchTitle } from '../../text.js';

/** Exactly one way of naming a window: `id`, or at least one of `app` and `title` (with `index` among matches). */
export interface WindowTarget {
  id?: string;
  app?: string;
  title?: string;
  index?: number;
}

/** Windows of an app: pid digits, else the app name (as list_apps shows it, or the program's window class). */
export function ofApp(windows: readonly WindowInfo[], app: string): WindowInfo[] {
  if (/^\d+$/.test(app)) return windows.filter((w) => w.pid === Number(app));
  return matchByName(windows, (w) => w.app, app);
}

/** The windows a target by app and title names, front to back, before its index picks one. */
export function windowsMatching(windows: readonly WindowInfo[], target: WindowTarget): WindowInfo[] {
  const byApp = target.app === undefined ? [...windows] : ofApp(windows, target.app);
  return target.title === undefined ? byApp : matchTitle(byApp, (w) => w.title, target.title);
}

/** Of the windows a target matches, those its index picks: the one at the index, or all of them without one. */
export const windowsPicked = (matches: readonly WindowInfo[], index: number | undefined): WindowInfo[] =>
  index === undefined ? [...matches] : matches.slice(index, index + 1);

/** The one window a target names, if it names exactly one of these. */
export function windowNamed(windows: readonly WindowInfo[], target: WindowTarget): WindowInfo | undefined {
  if (target.id !== undefined) return windows.find((w) => w.id === target.id);
  const picked = windowsPicked(windowsMatching(windows, target), target.index);
  return picked.length === 1 ? picked[0] : undefined;
}
