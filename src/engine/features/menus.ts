/**
 * An app's menu bar, addressed by the names people read: "File > Save As…". Built on the accessibility tree, so
 * it works alike on every platform: AT-SPI `menu bar > menu "File" > menu item "Save As..."`, macOS
 * `AXMenuBar > AXMenuBarItem "File" > AXMenu > AXMenuItem "Save As…"`. The entries of a menu are its named
 * menu children; unnamed menus (macOS AXMenu) and unnamed structural containers are passed through. Items of
 * closed menus are hidden but present, so they are listed and activated without opening the menu.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { MacpilotError } from '../../errors.js';
import type { AppInfo, ElementNode } from '../../helper-client/protocol.js';
import type { Kernel } from '../kernel/kernel.js';
import { childPath, type ElementPath, isTransparent, parsePath, segmentFor } from '../kernel/paths.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { AppRef } from '../kernel/refs.js';
import type { ActionResult, MenuItemResult, MenuLine, MenuResult } from '../kernel/results.js';
import { joinNames, parseMenuPath } from '../../menu-path.js';
import { MENU_ROLES, roleOf } from '../kernel/roles.js';
import { shownName } from '../kernel/shown.js';
import { matchByName, normalizeName } from '../../text.js';
import { annotate, labelOf, type Walked } from '../kernel/tree.js';
import { entryWords, words } from '../kernel/words.js';

/** Each step walks one level; pass-through nodes (see isPassThrough) are walked when met. */
const STEP_MAX_NODES = 2_000;
export const MENU_DEFAULTS = { depth: 1, maxDepth: 4, maxLines: 400 } as const;
const LISTED = 40;
/** How long a menu may take to open after its click. */
const SHOW_WAIT_MS = 3_000;
const SHOW_POLL_MS = 20;

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

/** The name as the menu shows it, padding trimmed. */

export class Menus {
  constructor(private readonly kernel: Kernel) {}

  /** The entries of the menu at `path` (default: the menu bar's menus), `depth` levels of submenus deep. */
  async list(app: string, path: string | undefined, depth: number, call?: CallOptions): Promise<MenuResult> {
    return this.kernel.guard(`list the menus of ${JSON.stringify(app)}`, async () => {
      const names = path === undefined ? [] : parseMenuPath(path);
      const { bar, appInfo } = await this.menuBar(app, call);
      const at = await this.follow(bar, names, call);
      const lines: MenuLine[] = [];
      let cut = false;
      const visit = async (entry: Entry, level: number): Promise<void> => {
        for (const child of await this.entries(entry, call)) {
          if (lines.length >= MENU_DEFAULTS.maxLines) {
            cut = true;
            return;
          }
          lines.push({ node: child.node, level, hasSubmenu: hasSubmenu(child.node) });
          if (level + 1 < depth && hasSubmenu(child.node)) await visit(child, level + 1);
        }
      };
      await visit(at, 0);
      return {
        kind: 'menu',
        app: appInfo.name,
        names: at.names,
        lines,
        maxLines: MENU_DEFAULTS.maxLines,
        cut,
      };
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
    const { menuBar, chain } = await this.kernel.guard(doing, async () => {
      const found = await this.menuBar(app, call);
      return { menuBar: found, chain: await this.chain(found.bar, parseMenuPath(path), call) };
    });
    const item = chain[chain.length - 1] as Entry;
    const names = joinNames(item.names);
    if (item.node.info.states.includes('disabled')) {
      throw new MacpilotError({
        what: `Could not click the menu item ${JSON.stringify(names)}`,
        why: 'the app has disabled it right now',
        next: 'do what enables it first (e.g. select text for Copy), then check with get_menu_item_state',
      });
    }
    return this.kernel.guard(doing, async () => {
      await this.bringToFront(menuBar, call);
      const scope = { app: menuBar.appInfo, top: menuBar.window?.id };
      return this.kernel.changes.observe(
        scope,
        async () => {
          for (const entry of chain) await this.clickWhenShown(entry, call);
          const { ref, path } = item.node;
          const label = JSON.stringify(names);
          return words`Clicked the menu item ${entryWords({ label, ref, path })}.`;
        },
        call,
      );
    });
  }

  /** The menu bar's window in front (menus of a window behind others would open under them). */
  private async bringToFront(bar: MenuBar, call?: CallOptions): Promise<void> {
    if (!bar.window) await this.kernel.port.call('apps.activate', { pid: bar.appInfo.pid }, call);
    else if (!bar.window.states.includes('active')) {
      await this.kernel.port.call('ax.focus', { id: bar.window.id }, call);
    }
  }

  /** Wait until a menu entry is on screen (its menu opened), then click its centre. */
  private async clickWhenShown(entry: Entry, call?: CallOptions): Promise<void> {
    const deadline = Date.now() + SHOW_WAIT_MS;
    for (;;) {
      const { element } = await this.kernel.port.call(
        'ax.element',
        { id: entry.node.info.id, maxValueLength: 0 },
        call,
      );
      const b = element.bounds;
      if (b && b.width > 0 && b.height > 0 && !element.states.includes('offscreen')) {
        const at = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
        await this.kernel.port.call('input.click', { at, button: 'left', count: 1, modifiers: [] }, call);
        return;
      }
      if (Date.now() >= deadline) {
        throw new MacpilotError({
          what: `The menu item ${JSON.stringify(joinNames(entry.names))} did not appear on screen`,
          why: `its menu did not open within ${SHOW_WAIT_MS} ms (a modal dialog of the app may block its menus)`,
          next: 'snapshot_ui shows what the app shows now; close its dialog, or press Escape to close an open menu',
        });
      }
      await sleep(SHOW_POLL_MS);
    }
  }

  /** Whether the item at `path` is enabled, checked, and opens a submenu. */
  async state(app: string, path: string, call?: CallOptions): Promise<MenuItemResult> {
    return this.kernel.guard(`read the menu item ${JSON.stringify(path)}`, async () => {
      const item = await this.item(app, path, call);
      return { kind: 'menu-item', node: item.node, names: item.names, hasSubmenu: hasSubmenu(item.node) };
    });
  }

  private async item(app: string, path: string, call?: CallOptions): Promise<Entry> {
    const { bar } = await this.menuBar(app, call);
    return this.follow(bar, parseMenuPath(path), call);
  }

  /** The entries along a path, from the menu bar's menu down to the item. */
  private async chain(bar: Entry, names: readonly string[], call?: CallOptions): Promise<Entry[]> {
    const chain: Entry[] = [];
    for (const name of names)
      chain.push(await this.follow(chain[chain.length - 1] ?? bar, [name], call, bar));
    return chain;
  }

  /** Follow names from the menu bar, one level at a time; a name that matches nothing lists what is there. */
  private async follow(
    from: Entry,
    names: readonly string[],
    call?: CallOptions,
    bar: Entry = from,
  ): Promise<Entry> {
    let at = from;
    for (const name of names) {
      const entries = await this.entries(at, call);
      const found = matchByName(entries, (e) => e.node.info.name, name);
      if (found.length === 1 && found[0]) {
        at = found[0];
        continue;
      }
      const where =
        at === bar ? `the menu bar of "${bar.app.name}"` : `the menu ${JSON.stringify(joinNames(at.names))}`;
      const there = entries
        .slice(0, LISTED)
        .map((e) => `"${shownName(e.node)}"${hasSubmenu(e.node) ? ' ▸' : ''}`);
      const more = entries.length > LISTED ? ` (+${entries.length - LISTED} more)` : '';
      throw new MacpilotError({
        what:
          found.length === 0
            ? `No menu item ${JSON.stringify(name)} in ${where}`
            : `${found.length} menu items are named ${JSON.stringify(name)} in ${where}`,
        why:
          found.length === 0
            ? `it holds: ${there.join(', ') || 'nothing'}${more}`
            : `their refs: ${found.map((e) => e.node.ref).join(', ')}`,
        next:
          found.length === 0
            ? 'use one of these names (matching ignores case, padding and "..." vs "…"); list_menu_items shows a menu'
            : 'click one of them by ref with click_element',
      });
    }
    return at;
  }

  /** The named menu entries under an entry, in order; pass-through nodes are walked as far as needed. */
  private async entries(parent: Entry, call?: CallOptions): Promise<Entry[]> {
    const collect = async (at: Walked): Promise<Walked[]> => {
      const walked = await this.walk(at, parent.app, call);
      const found = await Promise.all(
        walked.children.map((child) =>
          isEntry(child) ? [child] : isPassThrough(child) ? collect(child) : [],
        ),
      );
      return found.flat();
    };
    const found = await collect(parent.node);
    return found.map((node) => ({ node, names: [...parent.names, shownName(node)], app: parent.app }));
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
