/**
 * The menu bar's extras (status items) through System Events UI scripting. The script reports each extra with its
 * owning process, menu bar and index; this module orders them left to right, finds an item again before acting on
 * it (extras come and go), and turns the script's "missing" answers into errors that list what exists.
 */
import { z } from 'zod';
import { MacpilotError } from '../../errors.js';
import type { CallOptions, StatusBarItem, StatusBarService } from '../../services/types.js';
import type { Osascript } from './osascript.js';
import { SCRIPTS } from './scripts.js';

const RAW_EXTRA = z.object({
  pid: z.number(),
  process: z.string(),
  bar: z.number(),
  index: z.number(),
  description: z.string(),
  title: z.string(),
  name: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type RawExtra = z.infer<typeof RAW_EXTRA>;

const MENU_ANSWER = z.union([
  z.object({ items: z.array(z.string()) }),
  z.object({ clicked: z.literal(true) }),
  z.object({ missing: z.string(), level: z.number(), available: z.array(z.string()) }),
  z.object({ notSubmenu: z.string(), level: z.number() }),
  z.object({ empty: z.literal(true) }),
]);
type MenuAnswer = z.infer<typeof MENU_ANSWER>;

export interface PlacedExtra {
  item: StatusBarItem;
  raw: RawExtra;
}

/** Left to right (by x, then y), numbered from 0; named by AXDescription, else AXTitle, else name. */
export function placeExtras(raw: readonly RawExtra[]): PlacedExtra[] {
  return [...raw]
    .sort((a, b) => a.x - b.x || a.y - b.y)
    .map((extra, position) => ({
      raw: extra,
      item: {
        position,
        process: extra.process,
        description: extra.description || extra.title || extra.name,
        bounds: { x: extra.x, y: extra.y, width: extra.width, height: extra.height },
      },
    }));
}

/** The extra that is `item` now: same process and description, the nearest to where it was. */
export function findExtra(placed: readonly PlacedExtra[], item: StatusBarItem): PlacedExtra | undefined {
  const same = placed.filter(
    (p) => p.item.process === item.process && p.item.description === item.description,
  );
  const distance = (p: PlacedExtra) =>
    item.bounds ? Math.abs(p.raw.x - item.bounds.x) : Math.abs(p.item.position - item.position);
  return same.sort((a, b) => distance(a) - distance(b))[0];
}

function label(item: StatusBarItem): string {
  return item.description
    ? `"${item.description}" (${item.process})`
    : `${item.process}'s extra at position ${item.position}`;
}

function menuError(
  item: StatusBarItem,
  names: readonly string[],
  answer: MenuAnswer,
): MacpilotError | undefined {
  const under = (level: number) => (level > 0 ? ` under ${names.slice(0, level).join(' > ')}` : '');
  if ('missing' in answer) {
    return new MacpilotError({
      what: `No menu item "${answer.missing}" in the menu of ${label(item)}${under(answer.level)}`,
      why:
        answer.available.length > 0
          ? `that menu has: ${answer.available.join(', ')}`
          : 'that menu has no named items',
      next: 'use one of those names exactly',
      kind: 'menu_item_not_found',
    });
  }
  if ('notSubmenu' in answer) {
    return new MacpilotError({
      what: `"${answer.notSubmenu}" in the menu of ${label(item)} has no submenu`,
      why: 'no submenu with items appeared within 2 s of opening it',
      next: `click "${answer.notSubmenu}" itself, or list the menu's items to see where the path goes`,
      kind: 'no_submenu',
    });
  }
  if ('empty' in answer) {
    return new MacpilotError({
      what: `The menu of ${label(item)} did not open`,
      why: 'no menu with items appeared within 2 s of the click; some extras (Control Center modules) show a panel instead of a menu',
      next: 'take a screenshot or a snapshot to see what opened',
      kind: 'menu_did_not_open',
    });
  }
  return undefined;
}

export function macosStatusBar(osascript: Osascript): StatusBarService {
  const placed = async (options: CallOptions) =>
    placeExtras(z.array(RAW_EXTRA).parse(await osascript.runConstant(SCRIPTS.statusBar, ['list'], options)));

  const locate = async (item: StatusBarItem, options: CallOptions): Promise<string[]> => {
    const extras = await placed(options);
    const found = findExtra(extras, item);
    if (!found) {
      throw new MacpilotError({
        what: `The menu bar extra ${label(item)} is gone`,
        why: `the menu bar now has: ${extras.map((e) => label(e.item)).join(', ') || 'no extras'}`,
        next: 'list the status bar items again and pick one of those',
        kind: 'status_bar_item_gone',
      });
    }
    return [String(found.raw.pid), String(found.raw.bar), String(found.raw.index)];
  };

  const menu = async (
    action: 'items' | 'pick',
    item: StatusBarItem,
    names: readonly string[],
    options: CallOptions,
  ) => {
    const at = await locate(item, options);
    const answer = MENU_ANSWER.parse(
      await osascript.runConstant(SCRIPTS.statusBar, [action, ...at, ...names], options),
    );
    const error = menuError(item, names, answer);
    if (error) throw error;
    return answer;
  };

  return {
    async list(options = {}) {
      return (await placed(options)).map((p) => p.item);
    },

    async click(item, options = {}) {
      const at = await locate(item, options);
      await osascript.runConstant(SCRIPTS.statusBar, ['click', ...at], options);
    },

    async menuItems(item, names, options = {}) {
      const answer = await menu('items', item, names, options);
      return 'items' in answer ? answer.items : [];
    },

    async clickMenuItem(item, names, options = {}) {
      if (names.length === 0) {
        throw new MacpilotError({
          what: 'No menu item given',
          why: 'a path names at least one menu item, e.g. "Wi-Fi > Turn Wi-Fi Off" names one under the Wi-Fi extra',
          next: 'give the menu item to click',
          kind: 'invalid_arguments',
        });
      }
      await menu('pick', item, names, options);
    },
  };
}
