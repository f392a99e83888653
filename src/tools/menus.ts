/** The menus toolset: an app's menu bar by the names people read, "File > Save As…". */
import { structured } from '../engine/render/json.js';
import { z } from 'zod';
import { MENU_DEFAULTS } from '../engine/features/menus.js';
import { clickStatusMenuItem, itemLine, pickItem, renderItems } from '../services/status-bar.js';
import { appParam } from './params.js';
import { defineTool, toolsetTools, withService, READ_ONLY, serviceOf, WRITE } from './types.js';

const appName = appParam.describe('App name (as list_apps shows it), bundle id / desktop id, or pid.');

const menuPath = z
  .string()
  .min(1)
  .max(1000)
  .describe(
    'Menu names from the menu bar down, separated by ">", e.g. "File > Save As…". Names match ignoring case, ' +
      'padding and "..." vs "…".',
  );

export const menusTools = toolsetTools('menus', [
  defineTool({
    name: 'list_menu_items',
    title: 'List menu items',
    description:
      "The items of an app's menu bar (no path: its menus), or of one menu (path), one a line with its ref and " +
      'state: `- menuitem "Save As..." [ref=e41] disabled`; ▸ marks a submenu. Closed menus are listed without ' +
      'opening them, but for a menu its app fills only as it opens: that one is clicked open, read, and ' +
      'closed again (the pointer moves; refused in background input mode).',
    input: z.object({
      app: appName,
      path: menuPath
        .optional()
        .describe('A menu, e.g. "File" or "File > Open Recent". Default: the menu bar.'),
      depth: z
        .number()
        .int()
        .min(1)
        .max(MENU_DEFAULTS.maxDepth)
        .optional()
        .describe('Levels of submenus to list (default 1: only the items of the menu).'),
    }),
    annotations: READ_ONLY,
    output: structured.menu,
    handle: (args, { engine, signal }) =>
      engine.menus.list(args.app, args.path, args.depth ?? MENU_DEFAULTS.depth, { signal }),
  }),
  defineTool({
    name: 'click_menu_item',
    title: 'Click a menu item',
    description:
      'Choose a menu item by its path, e.g. "File > Save As…", without opening the menus by hand. A path that ' +
      'does not exist is refused with the items that exist where it failed. Returns what changed, e.g. the ' +
      'dialog that opened, with refs to act on.',
    input: z.object({ app: appName, path: menuPath }),
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) => engine.menus.click(args.app, args.path, { signal }),
  }),
  defineTool({
    name: 'get_menu_item_state',
    title: 'Get a menu item state',
    description:
      'Whether a menu item is enabled, whether it is checked (for check and radio items), and whether it opens ' +
      'a submenu; with its ref and element path. A menu its app fills only as it opens is clicked open to ' +
      'read it and closed again.',
    input: z.object({ app: appName, path: menuPath }),
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) => engine.menus.state(args.app, args.path, { signal }),
  }),
]);

const statusItem = z
  .string()
  .min(1)
  .max(256)
  .describe(
    'The status item: its description ("Wi-Fi"), its process name ("Dropbox") or its position from ' +
      'list_status_bar_items ("#3").',
  );

export const statusBarTools = toolsetTools(
  'menus',
  withService('statusBar', [
    defineTool({
      name: 'list_status_bar_items',
      title: 'List status bar items',
      description:
        "The menu bar's status items (menu extras: Wi-Fi, Battery, app icons), left to right, with position, " +
        'description, owning process and bounds.',
      input: z.object({}),
      annotations: READ_ONLY,
      handle: async (_args, context) =>
        renderItems(await serviceOf(context, 'statusBar').list({ signal: context.signal })),
    }),
    defineTool({
      name: 'click_status_bar_item',
      title: 'Click a status bar item',
      description:
        'Click a status item in the menu bar, which usually opens its menu. Not found lists what exists.',
      input: z.object({ item: statusItem }),
      annotations: WRITE,
      handle: async (args, context) => {
        const statusBar = serviceOf(context, 'statusBar');
        const item = pickItem(await statusBar.list({ signal: context.signal }), args.item);
        await statusBar.click(item, { signal: context.signal });
        return `Clicked ${itemLine(item).slice(2)}.`;
      },
    }),
    defineTool({
      name: 'click_status_bar_menu_item',
      title: 'Click a status bar menu item',
      description:
        'Open a status item\'s menu and choose an item by its path, e.g. item "Wi-Fi", path "Turn Wi-Fi Off" ' +
        'or "Open Recent > report.pdf". Waits for menus that apps build only when opened. A name that does not ' +
        'exist is refused with the names that do.',
      input: z.object({
        item: statusItem,
        path: menuPath.describe('Menu item names from the top of the menu down, separated by ">".'),
      }),
      annotations: WRITE,
      handle: async (args, context) => {
        const statusBar = serviceOf(context, 'statusBar');
        const options = { signal: context.signal };
        const item = pickItem(await statusBar.list(options), args.item);
        const clicked = await clickStatusMenuItem(statusBar, item, args.path, options);
        return `Clicked ${clicked.join(' > ')} in the menu of ${itemLine(item).slice(2)}.`;
      },
    }),
  ]),
);
