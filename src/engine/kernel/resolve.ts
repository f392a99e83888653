/**
 * From words to elements: app names to apps, paths to handles (one level at a time, from the app), and
 * elements met outside a walk (focus, hit tests) to paths and refs.
 */
import { type FailureParts, MacpilotError } from '../../errors.js';
import type { AppInfo, ElementInfo, ElementNode, WindowInfo } from '../../helper-client/protocol.js';
import {
  childPath,
  type ElementPath,
  formatPath,
  formatSegment,
  isTransparent,
  isTransparentSegment,
  matchSegment,
  type Segment,
  segmentFor,
  appPath,
} from './paths.js';
import { consolePageRefusal, isConsolePage } from './console-page.js';
import { isGone } from './failures.js';
import { noWindowWithId } from './words.js';
import { contentName, namedBy, takesContentName } from './names.js';
import type { HelperPort } from './port.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { AppRef, RefSighting, RefTable } from './refs.js';
import type { TreelessApp } from './results.js';
import { type Role, roleOf } from './roles.js';
import { clip, matchByName, matchTitle, normalizeName, plural } from '../../text.js';
import { annotate, isSecure, labelOf, nameFilterOf, type Walked } from './tree.js';

/** Children listed in an error before "+N more". */
const LISTED = 20;
/** A level of children is one depth-1 walk; this bounds it. */
export const LEVEL_MAX_NODES = 5_000;
/** Beyond this many children an element is a container, not a place that shows a message. */
const SHOWN_TEXT_MAX_CHILDREN = 20;

/** Children as a read gave them; `partial`: a long list's, some of its rows left out by a name filter. */
type Siblings = ElementNode[] & { partial?: boolean };

export interface Resolved extends RefSighting {
  handle: string;
}

export function describeApps(apps: readonly AppInfo[]): string {
  return apps.length === 0 ? 'none' : apps.map((a) => `${a.name} (pid ${a.pid})`).join(', ');
}

const listChildren = (children: readonly ElementNode[]): string => {
  if (children.length === 0) return 'nothing';
  const shown = children.slice(0, LISTED).map((c) => labelOf(roleOf(c), c.name));
  const more = children.length > LISTED ? ` (+${children.length - LISTED} more)` : '';
  return `${shown.join(', ')}${more}`;
};

/**
 * Refuses (throws an AppRefused) when the call in progress may not use this app (see src/policy/apps.ts), or, with
 * `access`, when a call of that access may not: a terminal may be read, not acted on; a denied app may be listed
 * (its name and window titles shown) only when the person allows it.
 */
export type AppGate = (
  app: { name: string; bundleId?: string; pid?: number },
  access?: 'list' | 'read' | 'write',
) => void;

/** An app the call in progress may not use: an AppGate's refusal, not a failure to find the app. */
export class AppRefused extends MacpilotError {
  /** The setting that refused it, in the person's words ("the environment variable MACPILOT_DENY_APPS"). */
  setting?: string;
  /** The app is the person's own (the browser showing macpilot's console), refused whatever the lists say. */
  personsOwn?: boolean;
}

/** A name several running apps answer to, with no pick among them: the call's question, not an absence. */
export class AppAmbiguous extends MacpilotError {}

/**
 * Whether a failure to find an app is the call's own problem (a refused app, an ambiguous name), which waiting
 * does not change, rather than something not there (yet).
 */
export const isCallProblem = (error: unknown): boolean =>
  error instanceof AppRefused || error instanceof AppAmbiguous;

/** A running app a name may mean, with the titles of its windows (what a person tells apps apart by). */
export interface AppCandidate {
  app: AppInfo;
  windows: string[];
}

/**
 * Asks the human of the call in progress which of several apps a name means; undefined when no one can be
 * asked (the error then lists the candidates). Throws when the human declines to pick.
 */
export type AppChooser = (query: string, candidates: readonly AppCandidate[]) => Promise<AppInfo | undefined>;

export class Resolver {
  /** The apps at the last look: whether a name is shared, for the paths printed (rootPath). */
  private lastApps: readonly AppInfo[] = [];

  constructor(
    private readonly port: HelperPort,
    private readonly refs: RefTable,
    private readonly gate: AppGate = () => {},
    private readonly choose: AppChooser = async () => undefined,
  ) {}

  /** Refuses the app when the call in progress may not use it (an app met without asking for it by name). */
  admit(app: AppInfo): void {
    this.gate(app);
  }

  /** Whether an action (a write) may target this app, whatever the access of the call in progress. */
  mayActOn(app: { name: string; bundleId?: string; pid?: number }): boolean {
    return this.allows(app, 'write');
  }

  /** Whether agents may see this app at all: the person's app lists hide those they may not read. */
  mayRead(app: { name: string; bundleId?: string; pid?: number }): boolean {
    return this.allows(app, 'read');
  }

  /** Whether agents may see this app's name and window titles in lists. */
  mayList(app: { name: string; bundleId?: string; pid?: number }): boolean {
    return this.allows(app, 'list');
  }

  /**
   * Whether the app is the person's own (the browser showing macpilot's console): never listed, and not counted
   * among what the app lists hide, which do not hide it and cannot show it.
   */
  isPersonsOwn(app: { name: string; pid: number }): boolean {
    try {
      this.gate(app, 'list');
      return false;
    } catch (error) {
      if (error instanceof AppRefused) return error.personsOwn === true;
      throw error;
    }
  }

  private allows(
    app: { name: string; bundleId?: string; pid?: number },
    access: 'list' | 'read' | 'write',
  ): boolean {
    try {
      this.gate(app, access);
      return true;
    } catch (error) {
      if (error instanceof AppRefused) return false;
      throw error;
    }
  }

  /** Every running app with an accessibility tree, those the app lists hide included: not for agents' eyes. */
  async apps(call?: CallOptions): Promise<AppInfo[]> {
    const { apps } = await this.port.call('apps.list', {}, call);
    this.lastApps = apps;
    return apps;
  }

  /**
   * The root of the app's paths: `app(1118)` when another app of its name ran at the last look, else by name.
   * Apps the lists hide (the console's browser among them) do not count: a name never means one of them.
   */
  rootPath(app: { name: string; pid: number }): ElementPath {
    const lower = app.name.toLowerCase();
    const shared = this.lastApps.some(
      (other) => other.pid !== app.pid && other.name.toLowerCase() === lower && this.mayRead(other),
    );
    return appPath(app, shared);
  }

  /**
   * The running apps agents may see listed, those with windows but no accessibility tree among them, and how
   * many the person's app lists hide. `windows`: every window, minimized ones too, where the caller has them.
   */
  async visibleApps(
    call?: CallOptions,
    windows?: readonly WindowInfo[],
  ): Promise<{
    apps: AppInfo[];
    withoutTree: TreelessApp[];
    hidden: number;
    hiddenBy: string[];
    offLimits: number[];
  }> {
    const all = await this.apps(call);
    const treeless = await this.treelessApps(call, all, windows);
    const apps = all.filter((app) => this.mayList(app));
    const offLimits = apps.filter((app) => !this.mayRead(app)).map((app) => app.pid);
    const withoutTree = treeless.filter((app) => this.mayList(app));
    const hiddenApps = [
      ...all.filter((app) => !apps.includes(app)),
      ...treeless.filter((app) => !withoutTree.includes(app)),
    ].filter((app) => !this.isPersonsOwn(app));
    return { apps, withoutTree, hidden: hiddenApps.length, hiddenBy: this.hiddenBy(hiddenApps), offLimits };
  }

  /**
   * Whether the app of process `pid` (one with an accessibility tree or only windows) is hidden from agents: the
   * lists' refusal of it (which names it and the setting, for the person), or false; undefined when the process
   * is no app (a clipboard manager, xclip).
   */
  async hides(pid: number, call?: CallOptions): Promise<AppRefused | false | undefined> {
    const apps = await this.apps(call);
    const app =
      apps.find((a) => a.pid === pid) ?? (await this.treelessApps(call, apps)).find((a) => a.pid === pid);
    if (!app) return undefined;
    try {
      this.gate(app, 'read');
      return false;
    } catch (error) {
      if (error instanceof AppRefused) return error;
      throw error;
    }
  }

  /** Whether any running app is hidden from agents, the person's own (the console's browser) aside. */
  async hidesAny(call?: CallOptions): Promise<boolean> {
    const apps = await this.apps(call);
    const all = [...apps, ...(await this.treelessApps(call, apps))];
    return all.some((app) => !this.mayRead(app) && !this.isPersonsOwn(app));
  }

  /** The settings that hide these apps from lists, each once, in the person's words. */
  hiddenBy(apps: readonly { name: string; pid: number; bundleId?: string }[]): string[] {
    const settings = new Set<string>();
    for (const app of apps) {
      try {
        this.gate(app, 'list');
      } catch (error) {
        if (error instanceof AppRefused && error.setting !== undefined) settings.add(error.setting);
      }
    }
    return [...settings];
  }

  /**
   * Processes with windows that expose no accessibility tree, by the windows' app name: a browser or Electron
   * app started before the desktop's accessibility switch was on, or an app without accessibility (xterm). All of
   * them, those the app lists hide included. None where the windows cannot be listed.
   */
  async treelessApps(
    call?: CallOptions,
    withTrees?: readonly AppInfo[],
    windows?: readonly WindowInfo[],
  ): Promise<TreelessApp[]> {
    const [listed, apps] = await Promise.all([
      windows
        ? { windows }
        : this.port.call('windows.list', { includeMinimized: true }, call).catch(() => ({ windows: [] })),
      withTrees ?? this.apps(call),
    ]);
    const withTree = new Set(apps.map((app) => app.pid));
    const byPid = new Map<number, TreelessApp>();
    for (const w of listed.windows) {
      if (w.pid <= 0 || withTree.has(w.pid)) continue;
      const app = byPid.get(w.pid) ?? { name: w.app, pid: w.pid, windows: [] };
      app.windows.push({ id: w.id, title: w.title });
      byPid.set(w.pid, app);
    }
    return [...byPid.values()];
  }

  /**
   * The windows agents may see (minimized ones when asked), front to back, and those the app lists hide (not
   * for agents' eyes): a window is hidden when its app, by its accessibility name or by the window's own app
   * name, may not be read; or, for a list (`listing`), may not be listed. `offLimits`: the ids of the windows
   * shown whose apps may not be read (a list that shows denied apps, MACPILOT_LIST_DENIED_APPS). `personsOwn`:
   * those of the hidden that are the person's own (macpilot's console), which no list hides or shows. `every`:
   * all of them, front to back.
   */
  async visibleWindows(
    includeMinimized: boolean,
    call?: CallOptions,
    listing = false,
  ): Promise<{
    windows: WindowInfo[];
    hidden: WindowInfo[];
    personsOwn: WindowInfo[];
    offLimits: string[];
    every: WindowInfo[];
  }> {
    const [{ windows: all }, apps] = await Promise.all([
      this.port.call('windows.list', { includeMinimized }, call),
      this.apps(call),
    ]);
    const byPid = new Map(apps.map((app) => [app.pid, app]));
    const may = (w: WindowInfo, check: (app: { name: string; pid: number }) => boolean) => {
      const app = byPid.get(w.pid);
      return (!app || check(app)) && check({ name: w.app, pid: w.pid });
    };
    const readable = (w: WindowInfo) => may(w, (app) => this.mayRead(app));
    const seen = (w: WindowInfo) => (listing ? may(w, (app) => this.mayList(app)) : readable(w));
    const windows = all.filter(seen);
    const offLimits = windows.filter((w) => !readable(w)).map((w) => w.id);
    const unseen = all.filter((w) => !seen(w));
    const personsOwn = unseen.filter((w) => this.isPersonsOwn({ name: w.app, pid: w.pid }));
    return { windows, hidden: unseen, personsOwn, offLimits, every: all };
  }

  /**
   * Refuses a window id, or the first window a predicate picks, whose app the lists keep from the call. A window
   * of an app the lists hide is, to the agent, not there: refused in the words of `absent` (what a call says when
   * no window matches), while the person, who set the lists, is told which app and which setting. A window listed
   * whose app may not be read (MACPILOT_LIST_DENIED_APPS) is refused as its app is. Nothing otherwise.
   */
  async refuseDeniedWindow(
    which: string | ((w: WindowInfo) => boolean),
    absent: Pick<FailureParts, 'what' | 'why' | 'next'>,
    call?: CallOptions,
  ): Promise<void> {
    const { windows, hidden } = await this.visibleWindows(true, call, true);
    const picks = typeof which === 'string' ? (w: WindowInfo) => w.id === which : which;
    const listed = windows.find(picks);
    const hiddenWindow = listed ? undefined : hidden.find(picks);
    if (hiddenWindow) {
      const what = `Window ${hiddenWindow.id} is off limits`;
      let person = {
        what,
        why: 'your app lists hide its app',
        next: 'use a window that `macpilot windows` lists',
      };
      // The person's audit log names the app as the policy names it (the console, not its browser).
      let reached = { app: hiddenWindow.app };
      try {
        this.gate({ name: hiddenWindow.app, pid: hiddenWindow.pid }, 'read');
      } catch (error) {
        if (error instanceof AppRefused) {
          const said = error.forPerson();
          person = { what, why: `${said.what}: ${said.why}`, next: said.next };
          if (error.reached?.app !== undefined) reached = { app: error.reached.app };
        }
      }
      throw new AppRefused({
        // The person's audit log names the app; the agent's answer does not.
        reached,
        what: absent.what,
        why: absent.why,
        next: absent.next,
        kind: 'app_off_limits',
        refusal: true,
        person,
      });
    }
    if (listed && !this.mayRead({ name: listed.app, pid: listed.pid })) {
      this.gate({ name: listed.app, pid: listed.pid }, 'read');
    }
  }

  /**
   * Refuses input that would land in a window whose app the lists keep from the call: the window under `point`, or
   * without one the front-most window (where keys go). Found by the window list, which needs no accessibility
   * tree: an app started before accessibility was on (the console's own browser, say) has windows but no tree.
   */
  async refuseHiddenWindowAt(point: { x: number; y: number } | undefined, call?: CallOptions): Promise<void> {
    const { windows } = await this.port.call('windows.list', { includeMinimized: false }, call);
    const inside = (w: WindowInfo) =>
      point !== undefined &&
      point.x >= w.bounds.x &&
      point.y >= w.bounds.y &&
      point.x < w.bounds.x + w.bounds.width &&
      point.y < w.bounds.y + w.bounds.height;
    const target =
      point === undefined ? (windows.find((w) => w.focused) ?? windows[0]) : windows.find(inside);
    if (target) this.gate({ name: target.app, pid: target.pid });
  }

  /**
   * Refuses a window id whose app the lists keep from the call (hidden, or not to be acted on); the app of a
   * window it lets through, for the audit log.
   */
  async gateWindow(id: string, call?: CallOptions): Promise<AppRef | undefined> {
    const { windows, hidden, personsOwn } = await this.visibleWindows(true, call);
    const found = windows.find((w) => w.id === id);
    if (!found) {
      const hiddenCount = hidden.filter((w) => !personsOwn.includes(w)).length;
      await this.refuseDeniedWindow(id, noWindowWithId(id, windows, hiddenCount), call);
      return undefined;
    }
    const app = { name: found.app, pid: found.pid };
    this.gate(app);
    return app;
  }

  /**
   * The app of an element or window met (focus, a hit test, a window list), not named by the agent: one the
   * lists hide is refused without its name, or its pid, which the agent did not give.
   */
  async appOf(pid: number, call?: CallOptions): Promise<AppInfo> {
    return this.app(String(pid), call, false);
  }

  /**
   * An app by name (case-insensitive), bundle id or pid; absent: the active app. `named`: by the agent. Of
   * several apps of one name, `windowTitle` picks the one with a window of that title (or part of it).
   */
  async app(
    query: string | undefined,
    call?: CallOptions,
    named = true,
    windowTitle?: string,
  ): Promise<AppInfo> {
    const all = await this.apps(call);
    // An app the lists hide is refused when named (the person's setting, said), never offered in a list.
    const apps = all.filter((app) => this.mayRead(app));
    const matching = query === undefined ? all.filter((a) => a.active) : pickApps(all, query);
    // Apps the lists hide are never offered as a choice, nor named in an error: among several of one name,
    // only the readable ones count; when none is, the first is refused as off limits.
    const readable = matching.filter((app) => this.mayRead(app));
    const found = matching.length > 1 ? (readable.length > 0 ? readable : matching.slice(0, 1)) : matching;
    // Counted only for an answer that says it: most calls find their app.
    const hidden = () => all.filter((app) => !this.mayList(app) && !this.isPersonsOwn(app)).length;
    if (found.length === 1 && found[0]) {
      this.gateNamed(found[0], named ? query : undefined, apps, hidden, named);
      if (found[0].notAnswering) throw notAnsweringError(found[0]);
      return found[0];
    }
    if (found.length > 1 && query !== undefined) {
      const candidates = await this.candidates(found, call);
      const titled =
        windowTitle === undefined
          ? []
          : candidates.filter((c) => matchTitle(c.windows, (title) => title, windowTitle).length > 0);
      const only = titled.length === 1 ? titled[0]?.app : undefined;
      if (only) {
        this.gate(only);
        return only;
      }
      const picked = await this.choose(query, titled.length > 1 ? titled : candidates);
      if (picked) {
        this.gate(picked);
        return picked;
      }
      throw appError(query, found, apps, candidates);
    }
    if (found.length === 0 && query !== undefined && named) await this.refuseTreeless(query, all, call);
    throw appError(query, found, apps, undefined, hidden());
  }

  /**
   * An app named that runs with windows but no tree is said to be so, with how it gets one, rather than "not
   * running": a browser started before the accessibility switch was on. Nothing when none is named so.
   */
  private async refuseTreeless(
    query: string,
    withTrees: readonly AppInfo[],
    call?: CallOptions,
  ): Promise<void> {
    const treeless = (await this.treelessApps(call, withTrees)).filter((app) => this.mayList(app));
    const app = pickTreeless(treeless, query)[0];
    if (!app) return;
    throw new MacpilotError({
      what: `${JSON.stringify(app.name)} (pid ${app.pid}) runs, with windows, but exposes no accessibility tree`,
      why: 'a browser or Electron app builds its tree only when accessibility is on as it starts, and this one started before; some apps have no accessibility at all',
      next: `relaunch_app with name ${JSON.stringify(app.name)} restarts it so that it builds its tree`,
      kind: 'app_without_tree',
      person: {
        next: 'quit it and start it again: it builds its tree as it starts while the accessibility switch is on (`macpilot doctor` says whether it is)',
      },
    });
  }

  /**
   * The gate for an app named by the call. An app the lists hide is, to an agent, not there at all: refused in
   * the words of an app that is not running, so that naming or numbering apps cannot find out which hidden ones
   * run. The person at the terminal, who set the lists, is told why.
   */
  private gateNamed(
    app: AppInfo,
    query: string | undefined,
    readable: readonly AppInfo[],
    hidden: () => number,
    named: boolean,
  ): void {
    try {
      this.gate(app);
    } catch (error) {
      if (!(error instanceof AppRefused) || this.mayList(app)) throw error;
      const absent = named
        ? appError(query, [], readable, undefined, hidden())
        : error.personsOwn
          ? {
              what: 'Not done: what it would read or act on is in a window hidden from you',
              why: "it is the person's own: macpilot's console, where they watch agents and answer their questions",
              next: 'nothing to do there; work in another app, or ask the person',
            }
          : {
              what: 'Not done: what it would read or act on is in an app hidden from you',
              why: "the person's app lists hide that app",
              next: 'only the person can change that; work in another app',
            };
      throw new AppRefused({
        what: absent.what,
        why: absent.why,
        next: absent.next,
        kind: 'app_off_limits',
        refusal: true,
        person: error.forPerson(),
        ...(error.reached ? { reached: error.reached } : {}),
      });
    }
  }

  /** Apps a name matches, each with its windows' titles. */
  private async candidates(apps: readonly AppInfo[], call?: CallOptions): Promise<AppCandidate[]> {
    const { windows } = await this.port.call('windows.list', { includeMinimized: true }, call);
    return apps.map((app) => ({
      app,
      windows: windows.filter((w) => w.pid === app.pid).map((w) => w.title),
    }));
  }

  /** The children of an element, as a depth-1 walk sees them. */
  /**
   * `named`: of a long list's rows, only those whose names may be this (a path's step by name reaches any); the
   * answer is then marked partial when rows were left out.
   */
  async children(
    handle: string,
    includeHidden: boolean,
    call?: CallOptions,
    named?: string,
  ): Promise<Siblings> {
    const params = {
      root: handle,
      depth: 1,
      maxNodes: LEVEL_MAX_NODES,
      includeHidden,
      maxValueLength: 0,
      ...nameFilterOf(named),
    };
    const { root } = await this.port.call('ax.snapshot', params, call);
    const children: Siblings = root.children ?? [];
    if (params.nameFilter !== undefined && children.length < root.childCount) children.partial = true;
    return children;
  }

  /** The children of an element in the tree agents see, hidden ones included (see paths.ts). */
  async logicalChildren(handle: string, call?: CallOptions, named?: string): Promise<Siblings> {
    const raw = await this.children(handle, true, call, named);
    const expanded = await Promise.all(
      raw.map((child) =>
        !isTransparent(child)
          ? [child]
          : child.childCount > 0
            ? this.logicalChildren(child.id, call, named)
            : [],
      ),
    );
    const logical: Siblings = expanded.flat();
    if (raw.partial || expanded.some((part) => (part as Siblings).partial)) logical.partial = true;
    return logical;
  }

  /**
   * An element met without its children, with the name its content gives it (names.ts): one more read, only
   * for an unnamed element of a role named from content. An element gone meanwhile has no content.
   */
  async named<T extends ElementInfo>(element: T, call?: CallOptions): Promise<T> {
    if (!takesContentName(element)) return element;
    const logical = await this.logicalChildren(element.id, call).catch((error: unknown) => {
      if (isGone(error)) return [];
      throw error;
    });
    return namedBy(element, logical);
  }

  /**
   * The text the labels among an element's children show, when it has neither a name nor a value of its own
   * (a status region's message, a status bar's fields): what a person reads there. Not read for an element of
   * more than SHOWN_TEXT_MAX_CHILDREN children, nor for a secure field.
   */
  async shownText(element: ElementInfo, call?: CallOptions): Promise<string | undefined> {
    const own = normalizeName(element.name) !== '' || (element.value !== undefined && element.value !== '');
    if (own || element.childCount === 0 || element.childCount > SHOWN_TEXT_MAX_CHILDREN || isSecure(element))
      return undefined;
    const logical = await this.logicalChildren(element.id, call).catch((error: unknown) => {
      if (isGone(error)) return [];
      throw error;
    });
    return contentName(logical) || undefined;
  }

  /** Siblings, those of `role` with the names their content gives them (read all at once). */
  private namedAmong<T extends ElementInfo>(siblings: T[], role: Role, call?: CallOptions): Promise<T[]> {
    return Promise.all(siblings.map((s) => (roleOf(s) === role ? this.named(s, call) : s)));
  }

  /** The transparent children of an element, among which a transparent one is addressed. */
  async transparentChildren(handle: string, call?: CallOptions): Promise<ElementNode[]> {
    return (await this.children(handle, true, call)).filter(isTransparent);
  }

  /**
   * The elements a segment chooses among, under the element at `handle`. A step by role alone followed by a named
   * step (`list/listitem/text["Row 9876"]`, as a search's answer names an unnamed row of a long list) reads the
   * list's rows by that name.
   */
  private async segmentCandidates(
    handle: string,
    segment: Segment,
    next: Segment | undefined,
    call?: CallOptions,
  ): Promise<Siblings> {
    // A step by role alone names an unnamed wrapper of that role (a snapshot's path); where there is none, it
    // names an element of that role that agents see there (`group` for the group "Dialogs").
    if (isTransparentSegment(segment)) {
      const wrappers = await this.transparentChildren(handle, call);
      if (matchSegment(wrappers, { ...segment, index: undefined }).length > 0) return wrappers;
    }
    const byRoleAlone = segment.name === undefined && segment.index === undefined;
    return this.logicalChildren(handle, call, byRoleAlone ? next?.name : segment.name);
  }

  /**
   * Of several elements a step by role alone matched, those under which the next step, by name, finds something:
   * the row of a long list that holds the named element. Read for a few candidates only.
   */
  private async holding(found: ElementNode[], next: Segment | undefined, call?: CallOptions) {
    if (next?.name === undefined || found.length < 2 || found.length > LISTED) return found;
    const holds = await Promise.all(
      found.map(async (candidate) => {
        const below = await this.namedAmong(await this.logicalChildren(candidate.id, call), next.role, call);
        return matchSegment(below, next).length > 0;
      }),
    );
    return found.filter((_, i) => holds[i]);
  }

  /**
   * Walk a path from its app, one level at a time; refused when a step matches nothing or several elements.
   * Issues no ref for what it finds: the caller decides whether that is a new ref or a re-pointed one.
   */
  async path(path: ElementPath, call?: CallOptions): Promise<Resolved> {
    const appInfo =
      path.pid === undefined ? await this.app(path.app, call) : await this.app(String(path.pid), call);
    const app = { pid: appInfo.pid, name: appInfo.name };
    let atPath: ElementPath = this.rootPath(appInfo);
    let at: Resolved = {
      handle: appInfo.id,
      path: formatPath(atPath),
      app,
      label: labelOf('application', appInfo.name),
    };
    for (const [step, segment] of path.segments.entries()) {
      // Names from content cost a read of each unnamed candidate's children, so they are read only when the
      // names the candidates have do not settle the step: a name that none or several carry, a name with an
      // index (snapshots write those counting names from content), or an element found that takes a name (the
      // path a snapshot gives it says that name).
      const next = path.segments[step + 1];
      const candidates = await this.segmentCandidates(at.handle, segment, next, call);
      let siblings = candidates;
      let found = matchSegment(siblings, segment);
      if (segment.name !== undefined && (found.length !== 1 || segment.index !== undefined)) {
        siblings = await this.namedAmong(candidates, segment.role, call);
        found = matchSegment(siblings, segment);
      }
      if (segment.name === undefined && segment.index === undefined)
        found = await this.holding(found, next, call);
      const hit = found[0];
      // The audit log names the app a path by pid reached, though the path then led nowhere.
      if (found.length !== 1 || !hit)
        throw this.stepError(path, step, atPath, siblings, found, app).reaching({ app: app.name });
      const position = siblings.indexOf(hit);
      if (siblings === candidates && takesContentName(hit)) {
        siblings = await this.namedAmong(candidates, segment.role, call);
      }
      const element = siblings[position] as ElementNode;
      // The person's console is no way through, however its document was named in the path.
      if (step < path.segments.length - 1 && isConsolePage(roleOf(element), element.name)) {
        throw consolePageRefusal();
      }
      // Among the rows of a long list a search kept, a row keeps its name, and an unnamed one its role alone
      // (segmentsFor's `partial`).
      atPath = childPath(
        atPath,
        segmentFor(element, siblings, candidates.partial === true ? 'filtered' : false),
      );
      at = resolvedAt(element, atPath, app);
    }
    return at;
  }

  private stepError(
    path: ElementPath,
    step: number,
    parent: ElementPath,
    children: ElementNode[],
    found: ElementNode[],
    app: AppRef,
  ): MacpilotError {
    const segment = formatSegment(path.segments[step] as Segment);
    const where = `step ${step + 2} of ${formatPath(path)} expects ${segment} under ${formatPath(parent)}`;
    if (found.length === 0) {
      return new MacpilotError({
        what: 'No element at this path',
        why: `${where}, and nothing there matches; there now: ${listChildren(children)}`,
        next: 'take a snapshot_ui or use find_elements to find the element as it is now, then act on what it shows',
        kind: 'no_element_at_path',
        concerns: ['path'],
      });
    }
    const candidates = found.slice(0, LISTED).map((c) => {
      const entry = this.refs.issue(c.id, resolvedAt(c, childPath(parent, segmentFor(c, children)), app));
      return `${entry.label} [ref=${entry.ref}]`;
    });
    const more = found.length > LISTED ? `; and ${found.length - LISTED} more` : '';
    return new MacpilotError({
      what: `The path matches ${found.length} elements, where it must name one`,
      why: `${where}, which matches: ${candidates.join('; ')}${more}`,
      next: 'act on one of these, or add a name or an index to that segment of the path',
      kind: 'path_ambiguous',
      concerns: ['path'],
    });
  }

  /**
   * An element met outside a walk (focus, hit test), with the path it has in the tree agents see: each element
   * of its ancestry is placed among the siblings its segment counts (see paths.ts).
   */
  async locate(info: ElementInfo, call?: CallOptions): Promise<Walked> {
    const [{ ancestors }, appInfo] = await Promise.all([
      this.port.call('ax.ancestors', { id: info.id }, call),
      this.appOf(info.pid, call),
    ]);
    // An element of the person's console is not for agents, however it was met.
    if (ancestors.some((a) => isConsolePage(roleOf(a), a.name))) {
      // The person's audit log names the browser it was met in.
      throw consolePageRefusal().about('', { app: appInfo.name });
    }
    const chain: ElementInfo[] = [...ancestors, info];
    const handleAt = (k: number) => (chain[k] as ElementInfo).id;
    // Below the app root, each element's path continues the path of the element its siblings belong to: its
    // parent when it is transparent, else its nearest ancestor that is not. All sibling lists load at once.
    let logicalParent = 0;
    const steps = chain.slice(1).map((element, i) => {
      if (isTransparent(element)) return { from: i, siblings: this.transparentChildren(handleAt(i), call) };
      const from = logicalParent;
      logicalParent = i + 1;
      return { from, siblings: this.logicalChildren(handleAt(from), call) };
    });
    // Awaited together: awaiting them one by one would leave the later ones unhandled when an earlier one fails.
    // An element that takes a name from its content is placed among its siblings by the names theirs give them.
    const lists = await Promise.all(
      steps.map(async (step, i) => {
        const element = chain[i + 1] as ElementInfo;
        const listed = await step.siblings;
        const siblings = listed.some((s) => s.id === element.id) ? listed : [...listed, element];
        return takesContentName(element) ? this.namedAmong(siblings, roleOf(element), call) : siblings;
      }),
    );
    const segments: Segment[][] = [[]];
    let self = info;
    for (const [i, step] of steps.entries()) {
      const siblings = lists[i] as ElementInfo[];
      self = siblings.find((s) => s.id === (chain[i + 1] as ElementInfo).id) as ElementInfo;
      segments.push([...(segments[step.from] as Segment[]), segmentFor(self, siblings)]);
    }
    const path = { ...this.rootPath(appInfo), segments: segments[chain.length - 1] as Segment[] };
    const node = { ...info, name: self.name };
    return annotate({ node, path, app: { pid: appInfo.pid, name: appInfo.name } }, this.refs);
  }
}

const resolvedAt = (info: ElementInfo, path: ElementPath, app: AppRef): Resolved => ({
  handle: info.id,
  path: formatPath(path),
  app,
  label: labelOf(roleOf(info), info.name),
  editable: info.states.includes('editable'),
});

/** Apps without a tree by pid digits, else by name (their windows'). */
export function pickTreeless(apps: readonly TreelessApp[], query: string): TreelessApp[] {
  const byPid = /^\d+$/.test(query.trim()) ? apps.filter((app) => app.pid === Number(query)) : [];
  return byPid.length > 0 ? byPid : matchByName(apps, (a) => a.name, query);
}

function pickApps(apps: readonly AppInfo[], query: string): AppInfo[] {
  if (/^\d+$/.test(query)) return apps.filter((a) => a.pid === Number(query));
  const byName = matchByName(apps, (a) => a.name, query);
  if (byName.length > 0) return byName;
  const lower = query.toLowerCase();
  const byId = apps.filter((a) => a.bundleId?.toLowerCase() === lower);
  if (byId.length > 0) return byId;
  // The name an app's launcher shows is often the last part of its id (org.gnome.Calculator: "Calculator",
  // which launch_app takes), where its process is named otherwise (gnome-calculator).
  return apps.filter((a) => a.bundleId?.split('.').at(-1)?.toLowerCase() === lower);
}

/** "both" for two apps that match a name, "all" for more. */
export const bothOrAll = (matches: readonly unknown[]): string => (matches.length === 2 ? 'both' : 'all');

/** `zenity (pid 42) "Question"`: an app as a person tells it from others of its name. */
export const describeCandidate = ({ app, windows }: AppCandidate): string =>
  `${app.name} (pid ${app.pid})${windows.length > 0 ? ` ${windows.map((t) => JSON.stringify(clip(t, 60))).join(', ')}` : ''}`;

/** An app that is there but did not answer the accessibility bus in time. */
function notAnsweringError(app: AppInfo): MacpilotError {
  const stopped = app.notAnswering === 'stopped';
  return new MacpilotError({
    what: `${app.name} (pid ${app.pid}) is not answering`,
    why: stopped
      ? 'its process is stopped (by a signal such as SIGSTOP or Ctrl+Z, or by a debugger), so it cannot answer'
      : 'it did not answer the accessibility bus in time: it is busy, or hung',
    next: stopped
      ? `whoever stopped it resumes it (\`kill -CONT ${app.pid}\`), then retry`
      : 'wait a few seconds and retry; if it stays silent, it may be hung',
    kind: 'app_not_answering',
  });
}

/**
 * `hidden`: running apps the person's app lists hide, counted (never named): said alike whether the app named is
 * one of them or does not run, so that it is not found out, and the agent knows whom to ask.
 */
function appError(
  query: string | undefined,
  found: readonly AppInfo[],
  apps: readonly AppInfo[],
  candidates?: readonly AppCandidate[],
  hidden = 0,
): MacpilotError {
  if (found.length > 1) {
    return new AppAmbiguous({
      what: query === undefined ? 'Several apps are active' : `Several apps match ${JSON.stringify(query)}`,
      why: `${candidates ? candidates.map(describeCandidate).join(', ') : describeApps(found)} ${bothOrAll(candidates ?? found)} match`,
      next: `name the app by its pid, e.g. ${found[0]?.pid} (in a path: app(${found[0]?.pid})/…)`,
      kind: 'app_ambiguous',
    });
  }
  return new MacpilotError({
    what: query === undefined ? 'No app is active' : `No running app matches ${JSON.stringify(query)}`,
    why:
      (query === undefined
        ? 'no app is in front (or it exposes no accessibility tree)'
        : 'no running app with an accessibility tree has that name, bundle id or pid') +
      (hidden > 0
        ? ` among those the person's app lists let you see (${plural(hidden, 'running app is', 'running apps are')} hidden; only the person can change that)`
        : ''),
    next: `name one of the running apps: ${describeApps(apps)}; or launch_app it first`,
    kind: 'app_not_running',
  });
}
