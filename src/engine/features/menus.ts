/**
 * An app's menu bar, addressed by the names people read: "File > Save As…". Built on the accessibility tree, so
 * it works alike on every platform: AT-SPI `menu bar > menu "File" > menu item "Save As..."`, macOS
 * `AXMenuBar > AXMenuBarItem "File" > AXMenu > AXMenuItem "Save As…"`. The entries of a menu are its named
 * menu children; unnamed menus (macOS AXMenu) and unnamed structural containers are passed through. Items of
 * closed menus are mostly hidden but present, so they are listed without opening the menu; a menu that holds
 * nothing while closed (apps such as Thunar fill it as it opens) is clicked open to be read, and closed again
 * unless an item of it is chosen.
 */
import { namedPaste } from '../kernel/hidden-copy.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { MacpilotError } from '../../errors.js';
import type { AppInfo, ElementNode, Point } from '../../helper-client/protocol.js';
import { MENU_CHOICE_QUIET_MS } from '../kernel/changes.js';
import { isGone } from '../kernel/failures.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Input } from './input.js';
import { childPath, type ElementPath, isTransparent, parsePath, segmentFor } from '../kernel/paths.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { AppRef } from '../kernel/refs.js';
import type { ActionResult, MenuItemResult, MenuLine, MenuResult } from '../kernel/results.js';
import { joinNames, parseMenuPath } from '../../menu-path.js';
import { MENU_ROLES, roleOf } from '../kernel/roles.js';
import { shownName } from '../kernel/shown.js';
import { matchByName, normalizeName, shellQuote } from '../../text.js';
import { annotate, labelOf, type Walked } from '../kernel/tree.js';
import { entryWords, words } from '../kernel/words.js';

/** Each step walks one level; pass-through nodes (see isPassThrough) are walked when met. */
const STEP_MAX_NODES = 2_000;
export const MENU_DEFAULTS = { depth: 1, maxDepth: 4, maxLines: 400 } as const;
const LISTED = 40;
/** How long a menu may take to open after its click. */
const SHOW_WAIT_MS = 3_000;
const SHOW_POLL_MS = 20;
/** How long an opened menu that held nothing closed may take to fill (GTK fills on show, within a frame). */
const FILL_WAIT_MS = 1_000;

/** An app's menu bar, and the window it belongs to (none on macOS: the app owns it). */
interface MenuBar {
  bar: Entry;
  window?: ElementNode;
  appInfo: AppInfo;
}

/** A menu entry: its walked node, its path of names from the menu bar, and its app. */
interface Entry {
  node: Walked;
  names: string[];
  app: AppRef;
}

const isEntry = (node: Walked): boolean => MENU_ROLES.has(node.role) && normalizeName(node.info.name) !== '';

/** Passed through: an unnamed menu (macOS AXMenu) or an unnamed structural container. */
const isPassThrough = (node: Walked): boolean =>
  (node.role === 'menu' && normalizeName(node.info.name) === '') || isTransparent(node.info);

export const hasSubmenu = (node: Walked): boolean => node.role === 'menu' || node.info.childCount > 0;

/**
 * One request's way through the menus: the entries followed from the bar (`trail`), and the menus it clicked
 * open to read them (`opened`, from the bar down): some apps (Thunar) fill a menu only when it opens.
 */
interface Way {
  bar: MenuBar;
  trail: Entry[];
  opened: Entry[];
}

const disabledItem = (names: readonly string[]) =>
  new MacpilotError({
    what: `Could not click the menu item ${JSON.stringify(joinNames(names))}`,
    why: 'the app has disabled it right now',
    next: 'do what enables it first (e.g. select text for Copy), then check with get_menu_item_state',
    kind: 'element_disabled',
    person: {
      next: `do what enables it first (e.g. select text for Copy); \`macpilot menu <app> ${shellQuote(joinNames(names.slice(0, -1)))} --list\` shows its state`,
    },
  });

/** A menu's entries in a sentence: `"New", "Recent" ▸, …` (the first LISTED), or "nothing". */
function listed(entries: readonly Entry[]): string {
  const there = entries
    .slice(0, LISTED)
    .map((e) => `"${shownName(e.node)}"${hasSubmenu(e.node) ? ' ▸' : ''}`);
  const more = entries.length > LISTED ? ` (+${entries.length - LISTED} more)` : '';
  return `${there.join(', ') || 'nothing'}${more}`;
}

export class Menus {
  /** Apps (by pid) seen to fill a menu only as it opens. */
  private readonly fillOnOpen = new Set<number>();

  constructor(
    private readonly kernel: Kernel,
    private readonly input: Input,
  ) {}

  /** Runs `work` on a new way from the bar; the menus it opened are closed again unless `work` chose an item. */
  private async along<T>(
    bar: MenuBar,
    work: (way: Way) => Promise<T>,
    call?: CallOptions,
    chose: (result: T) => boolean = () => false,
  ): Promise<T> {
    const way: Way = { bar, trail: [], opened: [] };
    let result: T | undefined;
    try {
      result = await work(way);
      return result;
    } finally {
      if (way.opened.length > 0 && !(result !== undefined && chose(result))) {
        // Escape closes the innermost open menu: once for each menu that opened. A click that opened nothing (a
        // modal dialog blocks the menus) leaves nothing to close, and an Escape then would close the dialog.
        for (const menu of [...way.opened].reverse()) {
          if (!(await this.showsItems(menu, call))) continue;
          await this.input.tap('Escape', call).catch(() => {});
        }
      }
    }
  }

  /** Whether a menu is open: it shows items (an element that is gone shows none). */
  private async showsItems(menu: Entry, call?: CallOptions): Promise<boolean> {
    const items = await this.kernel.resolver.children(menu.node.info.id, false, call).catch(() => []);
    return items.length > 0;
  }

  /** The entries of the menu at `path` (default: the menu bar's menus), `depth` levels of submenus deep. */
  async list(app: string, path: string | undefined, depth: number, call?: CallOptions): Promise<MenuResult> {
    return this.kernel.guard(`list the menus of ${JSON.stringify(app)}`, async () => {
      const names = path === undefined ? [] : parseMenuPath(path);
      const menuBar = await this.menuBar(app, call);
      const { bar, appInfo } = menuBar;
      return this.along(
        menuBar,
        async (way) => {
          const at = await this.follow(bar, names, call, way);
          if (names.length > 0 && !hasSubmenu(at.node)) {
            throw new MacpilotError({
              what: `${JSON.stringify(joinNames(at.names))} is a menu item, not a menu`,
              why: 'it opens no submenu, so it has no items to list',
              next: 'list the menu that holds it (the path without its last name), or choose it with click_menu_item',
              kind: 'not_a_menu',
              concerns: ['path'],
            });
          }
          const lines: MenuLine[] = [];
          let cut = false;
          // The menu named is opened if it fills only then; its submenus are listed as they are.
          const visit = async (entry: Entry, level: number): Promise<void> => {
            for (const child of await this.entries(entry, call, level === 0 ? way : undefined)) {
              if (lines.length >= MENU_DEFAULTS.maxLines) {
                cut = true;
                return;
              }
              lines.push({ node: child.node, level, hasSubmenu: hasSubmenu(child.node) });
              if (level + 1 < depth && hasSubmenu(child.node)) await visit(child, level + 1);
            }
          };
          await visit(at, 0);
          const result: MenuResult = {
            kind: 'menu',
            app: appInfo.name,
            names: at.names,
            lines,
            maxLines: MENU_DEFAULTS.maxLines,
            cut,
          };
          return result;
        },
        call,
      );
    });
  }

  /**
   * Choose the item at `path` as a person does: click each menu of the path open, then the item, with
   * synthetic clicks at their centres. Not the item's own action: a GTK3 item whose action runs a modal dialog
   * (Save As…) keeps the app from answering accessibility requests until that dialog closes. The answer shows
   * what changed, e.g. the dialog that opened.
   */
  async click(app: string, path: string, call?: CallOptions): Promise<ActionResult> {
    const doing = `click the menu item ${JSON.stringify(path)}`;
    const menuBar = await this.kernel.guard(doing, () => this.menuBar(app, call));
    return this.along(
      menuBar,
      async (way) => {
        const chain = await this.kernel.guard(doing, () => this.chain(parseMenuPath(path), call, way));
        const item = chain[chain.length - 1] as Entry;
        const names = joinNames(item.names);
        if (hasSubmenu(item.node)) throw await this.notAnItem(item, call, way);
        // A state read in a closed menu may be stale (Thunar sets its items' states as the menu opens): such an
        // item is checked again once its menu shows.
        const readOpen = chain.length === 1 || way.opened.includes(chain[chain.length - 2] as Entry);
        if (readOpen && item.node.info.states.includes('disabled')) throw disabledItem(item.names);
        if (namedPaste(item.names.at(-1)))
          await this.kernel.hiddenCopy.refusePaste(`the menu item ${JSON.stringify(path)}`);
        return this.kernel.guard(doing, async () => {
          if (way.opened.length === 0) await this.bringToFront(menuBar, call);
          const scope = { app: menuBar.appInfo, top: menuBar.window?.id };
          const target = this.kernel.refs.get(item.node.ref);
          const observed = await this.kernel.changes.observe(
            scope,
            async () => {
              // A menu opened to read it is open still: clicking it again would close it.
              let parent = menuBar.bar;
              for (const [i, entry] of chain.entries()) {
                const last = i === chain.length - 1;
                if (way.opened.includes(entry)) parent = entry;
                else {
                  parent = await this.clickInMenu(menuBar, parent, entry, call, last);
                  // Open now: closed again if a later step fails (the item disabled once its menu shows).
                  if (!last) way.opened.push(parent);
                }
              }
              const { ref, path } = item.node;
              const label = JSON.stringify(names);
              return words`Clicked the menu item ${entryWords({ label, ref, path })}.`;
            },
            call,
            { surely: true, quietMs: MENU_CHOICE_QUIET_MS },
          );
          return target ? { ...observed, target } : observed;
        });
      },
      call,
      () => true,
    );
  }

  /** The menu bar's window in front (menus of a window behind others would open under them). */
  private async bringToFront(bar: MenuBar, call?: CallOptions): Promise<void> {
    if (!bar.window) await this.kernel.port.call('apps.activate', { pid: bar.appInfo.pid }, call);
    else if (!bar.window.states.includes('active')) {
      await this.kernel.port.call('ax.focus', { id: bar.window.id }, call);
    }
  }

  /**
   * Click an entry of `parent`'s menu once it shows; an app that builds the menu's items anew each time it
   * opens (Thunar) has replaced the entry read before, so it is found again by its name. Returns what was
   * clicked.
   */
  private async clickInMenu(
    bar: MenuBar,
    parent: Entry,
    planned: Entry,
    call: CallOptions | undefined,
    refuseDisabled: boolean,
  ): Promise<Entry> {
    const deadline = Date.now() + SHOW_WAIT_MS;
    let entry = planned;
    for (;;) {
      try {
        await this.clickWhenShown(bar, entry, call, refuseDisabled);
        return entry;
      } catch (error) {
        if (!isGone(error) || Date.now() >= deadline) throw error;
      }
      await sleep(SHOW_POLL_MS);
      const again = matchByName(
        await this.entries(parent, call),
        (e) => e.node.info.name,
        planned.node.info.name,
      );
      if (again.length === 1 && again[0]) entry = again[0];
    }
  }

  /** Wait until a menu entry is on screen (its menu opened), then click its centre. */
  private async clickWhenShown(
    bar: MenuBar,
    entry: Entry,
    call?: CallOptions,
    refuseDisabled = false,
  ): Promise<void> {
    const deadline = Date.now() + SHOW_WAIT_MS;
    for (;;) {
      const { element } = await this.kernel.port.call(
        'ax.element',
        { id: entry.node.info.id, maxValueLength: 0 },
        call,
      );
      const b = element.bounds;
      if (b && b.width > 0 && b.height > 0 && !element.states.includes('offscreen')) {
        if (refuseDisabled && element.states.includes('disabled')) throw disabledItem(entry.names);
        const at = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
        if (entry.names.length === 1) await this.uncovered(bar, entry, at, call);
        await this.kernel.port.call('input.click', { at, button: 'left', count: 1, modifiers: [] }, call);
        return;
      }
      if (Date.now() >= deadline) {
        throw new MacpilotError({
          what: `The menu item ${JSON.stringify(joinNames(entry.names))} did not appear on screen`,
          why: `its menu did not open within ${SHOW_WAIT_MS} ms (a modal dialog of the app may block its menus)`,
          next: 'snapshot_ui shows what the app shows now; close its dialog, or press Escape to close an open menu',
          kind: 'menu_did_not_open',
        });
      }
      await sleep(SHOW_POLL_MS);
    }
  }

  /**
   * A window's menu bar title is clicked only where nothing covers it: the click would land in what is on top
   * (the app's own modal dialog, which may sit over its main window, or another app's window).
   */
  private async uncovered(bar: MenuBar, title: Entry, at: Point, call?: CallOptions): Promise<void> {
    if (!bar.window) return;
    const hit = await this.kernel.elementAt(at, call);
    if (!hit || hit.id === title.node.info.id) return;
    const menu = `the menu ${JSON.stringify(title.names[0])}`;
    if (hit.pid !== bar.appInfo.pid) {
      // Which app covers it is not said: it may be one the person's app lists hide.
      throw new MacpilotError({
        what: `Did not open ${menu}: another app's window covers it`,
        why: `the click at ${at.x},${at.y} would land in that window`,
        next: `bring "${bar.appInfo.name}" in front (activate_app) or move the window that covers it, then try again`,
        kind: 'element_covered',
        person: {
          next: 'bring the app in front, or move the window that covers it, then run the command again',
        },
      });
    }
    const { ancestors } = await this.kernel.port.call('ax.ancestors', { id: hit.id }, call);
    const top = ancestors[1] ?? hit;
    if (top.id === bar.window.id) return;
    throw new MacpilotError({
      what: `Did not open ${menu}: the app's window ${JSON.stringify(top.name)} covers it`,
      why: `it is on top at ${at.x},${at.y}, and the click would land in it`,
      next: `finish or close ${JSON.stringify(top.name)} first (snapshot_ui shows it), then try again`,
      kind: 'element_covered',
      person: { next: `finish or close ${JSON.stringify(top.name)} first, then run the command again` },
    });
  }

  /** The refusal to click a menu, not an item: what it holds, to name one of them. */
  private async notAnItem(menu: Entry, call: CallOptions | undefined, way: Way): Promise<MacpilotError> {
    const entries = await this.entries(menu, call, way);
    const name = JSON.stringify(joinNames(menu.names));
    return new MacpilotError({
      what: `Did not click ${name}: it is a menu, not an item`,
      why: `it opens a submenu, which holds: ${listed(entries)}`,
      next: `name one of its items: "${joinNames([...menu.names, '…'])}"`,
      kind: 'not_a_menu_item',
      concerns: ['path'],
    });
  }

  /** Whether the item at `path` is enabled, checked, and opens a submenu. */
  async state(app: string, path: string, call?: CallOptions): Promise<MenuItemResult> {
    return this.kernel.guard(`read the menu item ${JSON.stringify(path)}`, async () => {
      const item = await this.item(app, path, call);
      return { kind: 'menu-item', node: item.node, names: item.names, hasSubmenu: hasSubmenu(item.node) };
    });
  }

  private async item(app: string, path: string, call?: CallOptions): Promise<Entry> {
    const menuBar = await this.menuBar(app, call);
    return this.along(menuBar, (way) => this.follow(menuBar.bar, parseMenuPath(path), call, way), call);
  }

  /** The entries along a path, from the menu bar's menu down to the item. */
  private async chain(names: readonly string[], call: CallOptions | undefined, way: Way): Promise<Entry[]> {
    for (const name of names) await this.follow(way.trail.at(-1) ?? way.bar.bar, [name], call, way);
    return [...way.trail];
  }

  /** Follow names from the menu bar, one level at a time; a name that matches nothing lists what is there. */
  private async follow(
    from: Entry,
    names: readonly string[],
    call: CallOptions | undefined,
    way: Way,
  ): Promise<Entry> {
    const bar = way.bar.bar;
    let at = from;
    for (const name of names) {
      if (at !== bar && !hasSubmenu(at.node)) {
        const item = JSON.stringify(joinNames(at.names));
        throw new MacpilotError({
          what: `No menu item ${JSON.stringify(name)} under ${item}`,
          why: `${item} is a menu item that opens no submenu, so nothing is under it`,
          next: `to choose ${item}, end the path there; list_menu_items lists the menu that holds it`,
          kind: 'menu_item_not_found',
          concerns: ['path'],
          person: {
            next: `to choose ${item}, end the path there; \`macpilot menu <app> ${shellQuote(joinNames(at.names.slice(0, -1)))} --list\` lists the menu that holds it`,
          },
        });
      }
      const entries = await this.entries(at, call, way);
      const found = matchByName(entries, (e) => e.node.info.name, name);
      if (found.length === 1 && found[0]) {
        at = found[0];
        way.trail.push(at);
        continue;
      }
      const where =
        at === bar ? `the menu bar of "${bar.app.name}"` : `the menu ${JSON.stringify(joinNames(at.names))}`;
      throw new MacpilotError({
        what:
          found.length === 0
            ? `No menu item ${JSON.stringify(name)} in ${where}`
            : `${found.length} menu items are named ${JSON.stringify(name)} in ${where}`,
        why:
          found.length === 0
            ? `it holds: ${listed(entries)}`
            : `their refs: ${found.map((e) => e.node.ref).join(', ')}`,
        next:
          found.length === 0
            ? 'use one of these names (matching ignores case, padding and "..." vs "…"); list_menu_items shows a menu'
            : 'click one of them by ref with click_element',
        kind: found.length === 0 ? 'menu_item_not_found' : 'menu_item_ambiguous',
        concerns: ['path'],
        ...(found.length === 0
          ? {
              person: {
                next: `use one of these names (matching ignores case, padding and "..." vs "…"); \`macpilot menu <app>${at === bar ? '' : ` ${shellQuote(joinNames(at.names))}`} --list\` lists ${at === bar ? 'the menu bar' : 'that menu'}`,
              },
            }
          : {}),
      });
    }
    return at;
  }

  /**
   * The named menu entries under an entry, in order; pass-through nodes are walked as far as needed. Given a
   * way, a menu that holds nothing while closed is clicked open (with the menus above it on the way) and read
   * once it shows; so is every menu of an app seen to do that, whose closed menus' states may be stale.
   */
  private async entries(parent: Entry, call?: CallOptions, way?: Way): Promise<Entry[]> {
    const collect = async (at: Walked): Promise<Walked[]> => {
      const walked = await this.walk(at, parent.app, call);
      const found = await Promise.all(
        walked.children.map((child) =>
          isEntry(child) ? [child] : isPassThrough(child) ? collect(child) : [],
        ),
      );
      return found.flat();
    };
    let found = await collect(parent.node);
    const pid = parent.app.pid;
    const closed = way && parent.node.role === 'menu' && !way.opened.includes(parent);
    // An app that filled a menu as it opened sets its items' states then too: closed, they may be stale.
    if (closed && (found.length === 0 || this.fillOnOpen.has(pid))) {
      if (found.length === 0) this.fillOnOpen.add(pid);
      await this.open(parent, way, call);
      const shown = (nodes: Walked[]) => nodes.some((n) => !n.info.states.includes('offscreen'));
      const deadline = Date.now() + FILL_WAIT_MS;
      found = await collect(parent.node);
      while (!shown(found) && Date.now() < deadline) {
        await sleep(SHOW_POLL_MS);
        found = await collect(parent.node);
      }
    }
    return found.map((node) => ({ node, names: [...parent.names, shownName(node)], app: parent.app }));
  }

  /** Click `menu` open, and every menu above it on the way that is not open yet. */
  private async open(menu: Entry, way: Way, call?: CallOptions): Promise<void> {
    if (way.opened.length === 0) await this.bringToFront(way.bar, call);
    const above = way.trail.slice(0, Math.max(0, way.trail.indexOf(menu)));
    for (const entry of [...above, menu]) {
      if (way.opened.includes(entry)) continue;
      await this.clickWhenShown(way.bar, entry, call);
      way.opened.push(entry);
    }
  }

  /** The element at `at` with its children, hidden ones included, with refs and paths. */
  private async walk(at: Walked, app: AppRef, call?: CallOptions): Promise<Walked> {
    const start = { handle: at.info.id, path: parsePath(at.path), app };
    const limits = { depth: 1, maxNodes: STEP_MAX_NODES, includeHidden: true, maxValueLength: 0 };
    return (await this.kernel.walk(start, limits, call)).tree;
  }

  /**
   * The app's menu bar: a child of the app (macOS), else of its active window, else of its first window that
   * has one (GTK puts one in each main window; dialogs have none).
   */
  private async menuBar(app: string, call?: CallOptions): Promise<MenuBar> {
    const resolver = this.kernel.resolver;
    const appInfo = await resolver.app(app, call);
    const appPath: ElementPath = resolver.rootPath(appInfo);
    const top = await resolver.logicalChildren(appInfo.id, call);
    const found = this.barAmong(top, appPath);
    if (found) return { bar: this.entryAt(found, appInfo), appInfo };
    const windows = top.filter((c) => roleOf(c) === 'window' || roleOf(c) === 'dialog');
    const ordered = [
      ...windows.filter((w) => w.states.includes('active')),
      ...windows.filter((w) => !w.states.includes('active')),
    ];
    for (const window of ordered) {
      const windowPath = childPath(appPath, segmentFor(window, top));
      const bar = this.barAmong(await resolver.logicalChildren(window.id, call), windowPath);
      if (bar) return { bar: this.entryAt(bar, appInfo), window, appInfo };
    }
    throw new MacpilotError({
      what: `"${appInfo.name}" has no menu bar`,
      why: `none of its windows (${windows.map((w) => labelOf(roleOf(w), w.name)).join(', ') || 'none'}) exposes a menu bar in its accessibility tree`,
      next: 'snapshot_ui shows its controls; apps with header-bar menus open them from a button',
      kind: 'no_menu_bar',
    });
  }

  private barAmong(children: ElementNode[], parent: ElementPath) {
    const bar = children.find((c) => roleOf(c) === 'menubar');
    return bar && { node: bar, path: childPath(parent, segmentFor(bar, children)) };
  }

  private entryAt(found: { node: ElementNode; path: ElementPath }, appInfo: AppInfo): Entry {
    const app = { pid: appInfo.pid, name: appInfo.name };
    const node = annotate(
      { node: { ...found.node, children: undefined }, path: found.path, app },
      this.kernel.refs,
    );
    return { node, names: [], app };
  }
}
