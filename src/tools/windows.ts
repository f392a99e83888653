/** The windows toolset: list the top-level windows and focus, move, resize, minimize, restore or close one. */
import { structured } from '../engine/render/json.js';
import { z } from 'zod';
import { WINDOW_ID_PATTERN } from '../helper-client/protocol.js';
import type { WindowTarget } from '../engine/kernel/window-target.js';
import { previousWindow } from './inverses.js';
import { defineTool, toolsetTools, READ_ONLY, WRITE } from './types.js';

const ADDRESSING =
  'Name the window by window_id (from list_windows), or by app and/or title; when several windows match, ' +
  'index picks one of them (0 = front-most; minimized windows count). A name that matches several windows ' +
  'without index is refused with the list.';

const windowTarget = {
  // list_windows shows most ids as bare numbers: one given as a JSON number is taken as its digits.
  window_id: z
    .preprocess(
      (id) => (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? String(id) : id),
      z.string().regex(WINDOW_ID_PATTERN, 'a window id is what list_windows shows, e.g. "41943047"'),
    )
    .optional()
    .describe('The window id list_windows shows. Alone: no app, title or index with it.'),
  app: z.string().min(1).max(256).optional().describe('App name (as list_windows shows it) or pid.'),
  title: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe('The window title, or part of it (case-insensitive).'),
  index: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .optional()
    .describe('Which of the matching windows, front to back from 0.'),
};

type TargetArgs = { window_id?: string; app?: string; title?: string; index?: number };

const oneWayOfNaming = (a: { [K in keyof TargetArgs]?: unknown }): boolean =>
  a.window_id === undefined
    ? a.app !== undefined || a.title !== undefined || a.index !== undefined
    : a.app === undefined && a.title === undefined && a.index === undefined;
const NAMING_MESSAGE = 'give window_id alone, or app and/or title (optionally with index)';

const targetInput = <Extra extends z.ZodRawShape>(extra: Extra) =>
  z.object({ ...windowTarget, ...extra }).refine(oneWayOfNaming, { message: NAMING_MESSAGE });

const targetOf = (a: TargetArgs): WindowTarget => ({
  id: a.window_id,
  app: a.app,
  title: a.title,
  index: a.index,
});

const coordinate = z.number().int().min(-100_000).max(100_000);
const length = z.number().int().min(1).max(100_000);

export const windowsTools = toolsetTools('windows', [
  defineTool({
    name: 'list_windows',
    title: 'List windows',
    description:
      'Top-level windows, front to back, one a line: id, title, app, pid, frame (screen points, decorations ' +
      'included) and state, e.g. `- window 41943047 "Untitled 1 - Mousepad" mousepad (pid 123) x=40 y=30 ' +
      '640x480 focused`. The ids name windows in the other window tools.',
    input: z.object({
      app: z.string().min(1).max(256).optional().describe('Only windows of this app (name or pid).'),
      include_minimized: z.boolean().optional().describe('Also list minimized windows (default false).'),
    }),
    output: structured.windows,
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) =>
      engine.windows.list({ app: args.app, includeMinimized: args.include_minimized }, { signal }),
  }),
  defineTool({
    name: 'focus_window',
    title: 'Focus a window',
    description: `Raise a window and give it keyboard focus. ${ADDRESSING} Returns the window's state.`,
    input: targetInput({}),
    output: structured.windowAction,
    annotations: { ...WRITE, idempotentHint: true },
    handle: (args, { engine, signal }) => engine.windows.focus(targetOf(args), { signal }),
  }),
  defineTool({
    name: 'move_window',
    title: 'Move a window',
    description:
      "Move a window so that its frame's top-left corner (title bar included) is at x, y in screen points. " +
      `${ADDRESSING} Returns where the window is now.`,
    input: targetInput({ x: coordinate, y: coordinate }),
    output: structured.windowAction,
    annotations: { ...WRITE, idempotentHint: true },
    inverse: (args, context) => previousWindow(targetOf(args), 'move', context),
    handle: (args, { engine, signal }) => engine.windows.move(targetOf(args), args.x, args.y, { signal }),
  }),
  defineTool({
    name: 'resize_window',
    title: 'Resize a window',
    description:
      'Resize a window so that its frame (title bar and borders included) is width x height screen points; ' +
      `its top-left corner stays. Apps may keep a minimum size. ${ADDRESSING} Returns its size now.`,
    input: targetInput({ width: length, height: length }),
    output: structured.windowAction,
    annotations: { ...WRITE, idempotentHint: true },
    inverse: (args, context) => previousWindow(targetOf(args), 'resize', context),
    handle: (args, { engine, signal }) =>
      engine.windows.resize(targetOf(args), args.width, args.height, { signal }),
  }),
  defineTool({
    name: 'minimize_window',
    title: 'Minimize a window',
    description: `Minimize (iconify) a window. ${ADDRESSING} restore_window brings it back.`,
    input: targetInput({}),
    output: structured.windowAction,
    annotations: { ...WRITE, idempotentHint: true },
    inverse: (args, context) => previousWindow(targetOf(args), 'minimize', context),
    handle: (args, { engine, signal }) => engine.windows.minimize(targetOf(args), { signal }),
  }),
  defineTool({
    name: 'restore_window',
    title: 'Restore a window',
    description: `Restore a minimized window, raise it and focus it. ${ADDRESSING}`,
    input: targetInput({}),
    output: structured.windowAction,
    annotations: { ...WRITE, idempotentHint: true },
    inverse: (args, context) => previousWindow(targetOf(args), 'restore', context),
    handle: (args, { engine, signal }) => engine.windows.restore(targetOf(args), { signal }),
  }),
  defineTool({
    name: 'close_window',
    title: 'Close a window',
    description:
      "Close a window as its close button would. The app may ask whether to save instead: the answer says whether the window closed and shows any dialog that opened. Closing an app's last window may quit it. " +
      ADDRESSING,
    input: targetInput({}),
    output: structured.windowAction,
    annotations: { ...WRITE, destructiveHint: true },
    handle: (args, { engine, signal }) => engine.windows.close(targetOf(args), { signal }),
  }),
]);
