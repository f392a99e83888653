/** The input toolset: synthetic mouse and keyboard, at screen points or at an element's centre. */
import { structured } from '../engine/render/json.js';
import { z } from 'zod';
import type { HeldPart } from '../engine/features/held-input.js';
import { heldKeyNamed, INPUT_DEFAULTS, PX_PER_WHEEL_STEP, type Spot } from '../engine/features/input.js';
import { describeDisplay } from '../engine/kernel/displays.js';
import type { MouseButton } from '../helper-client/protocol.js';
import { backgroundParam, pathParam, refParam } from './params.js';
import { previousFocusedValue, previousValue } from './inverses.js';
import { defineTool, READ_ONLY, type ToolContext, toolsetTools, WRITE } from './types.js';
import type { ActionResult } from '../engine/kernel/results.js';

const coordinate = z.number().min(-100_000).max(100_000);
const point = {
  x: coordinate.describe('Screen x in points.'),
  y: coordinate.describe('Screen y in points.'),
};

const MODIFIERS_HELP =
  'Modifier keys: command (cmd, meta), control (ctrl), option (alt, opt), shift, super (win), fn. On Linux ' +
  '"command" is Control, the shortcut key (so "cmd+s" saves on both platforms), and "super" the logo key.';
const modifiersParam = z.array(z.string().min(1).max(16)).max(6).describe(MODIFIERS_HELP);

/** `x` and `y`, or `ref`: one spot. */
const spotInput = z
  .object({
    x: point.x.optional(),
    y: point.y.optional(),
    ref: refParam.optional().describe('An element (from snapshot_ui or find_elements); its centre is used.'),
  })
  .refine((a) => (a.ref === undefined) !== (a.x === undefined && a.y === undefined), {
    message: 'give either x and y, or ref',
  })
  .refine((a) => (a.x === undefined) === (a.y === undefined), { message: 'give both x and y' });

function spotOf(args: { x?: number; y?: number; ref?: string }): Spot {
  return args.ref !== undefined ? { ref: args.ref } : { x: args.x ?? 0, y: args.y ?? 0 };
}

/** mouse_down and mouse_up: a button, and a point or none (where the pointer is). */
const heldButtonInput = z
  .object({
    button: z.enum(['left', 'right', 'middle']).optional().describe('Default left.'),
    x: point.x.optional(),
    y: point.y.optional(),
  })
  .refine((a) => (a.x === undefined) === (a.y === undefined), { message: 'give both x and y, or neither' });

const buttonPart = (args: { button?: MouseButton }): HeldPart => ({
  kind: 'button',
  button: args.button ?? 'left',
});
const optionalSpot = (args: { x?: number; y?: number }): Spot | undefined =>
  args.x === undefined || args.y === undefined ? undefined : { x: args.x, y: args.y };

/** A release that sent nothing (the key or button was not held) is noted as that in the audit log. */
function released(result: ActionResult, note: ToolContext['note']): ActionResult {
  if (result.nothingSent) note({ nothing_sent: true });
  return result;
}

const heldKeyInput = z.object({
  key: z
    .string()
    .min(1)
    .max(32)
    .describe('One key: a modifier ("shift", "ctrl", "alt", "cmd") or a key press_key names ("w", "space").'),
});

const CursorJson = z.object({
  x: z.number(),
  y: z.number(),
  display: z.string().nullable().describe('The id of the display the pointer is on (list_displays).'),
});

const endpoint = z
  .union([z.object(point).strict(), z.object({ ref: refParam }).strict()])
  .describe('A screen point {x, y} or an element {ref} (its centre).');

const INPUT_NOTE =
  'Screen points, origin at the top left (get_element shows bounds in the same units; take_screenshot states ' +
  'its scale). Returns what changed in the app there.';

const OPPOSITE = { up: 'down', down: 'up', left: 'right', right: 'left' } as const;
export const inputTools = toolsetTools('input', [
  defineTool({
    name: 'click',
    title: 'Click at a point',
    description:
      `Click the mouse at a screen point: a button, a click count (2 double, 3 triple), modifier keys held. ${INPUT_NOTE} ` +
      'Prefer click_element with a ref when the target is in the accessibility tree.',
    input: z.object({
      ...point,
      button: z.enum(['left', 'right', 'middle']).optional().describe('Default left.'),
      count: z.number().int().min(1).max(3).optional().describe('Clicks in a row; default 1.'),
      modifiers: modifiersParam.optional(),
    }),
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) =>
      engine.input.click(
        { x: args.x, y: args.y },
        { button: args.button, count: args.count, modifiers: args.modifiers },
        { signal },
      ),
  }),
  defineTool({
    name: 'double_click',
    title: 'Double-click',
    description: `Double-click with the left button at a screen point (x, y) or at an element's centre (ref). ${INPUT_NOTE}`,
    input: spotInput,
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) => engine.input.click(spotOf(args), { count: 2 }, { signal }),
  }),
  defineTool({
    name: 'move_mouse',
    title: 'Move the mouse',
    description:
      `Move the pointer to a screen point, at once or (smooth) along a line over ${INPUT_DEFAULTS.smoothMoveMs} ms, ` +
      'which some apps need to see the pointer travel.',
    input: z.object({ ...point, smooth: z.boolean().optional().describe('Glide instead of jumping.') }),
    output: structured.action,
    annotations: { ...WRITE, idempotentHint: true },
    handle: (args, { engine, signal }) =>
      engine.input.move({ x: args.x, y: args.y }, args.smooth ?? false, 'move the pointer to', {
        signal,
      }),
  }),
  defineTool({
    name: 'hover',
    title: 'Hover',
    description:
      "Move the pointer over a screen point or an element's centre and leave it there, e.g. to show a tooltip " +
      'or a hover menu; the answer shows what appeared.',
    input: spotInput,
    output: structured.action,
    annotations: { ...WRITE, idempotentHint: true },
    handle: (args, { engine, signal }) => engine.input.move(spotOf(args), false, 'hover over', { signal }),
  }),
  defineTool({
    name: 'drag',
    title: 'Drag',
    description:
      `Press the left button at one place, move to another over ${INPUT_DEFAULTS.dragMs} ms, release: drag and ` +
      `drop, sliders, selections. Each end is a screen point {x, y} or an element {ref}. ${INPUT_NOTE}`,
    input: z.object({ from: endpoint, to: endpoint }),
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) => engine.input.drag(args.from, args.to, { signal }),
  }),
  defineTool({
    name: 'scroll',
    title: 'Scroll',
    description:
      `Scroll with the mouse wheel at a screen point, at an element's centre (ref), or where the pointer is: ` +
      `a direction and an amount in pixels, sent as wheel steps of ${PX_PER_WHEEL_STEP} px (one notch; how far ` +
      `a notch scrolls is up to the app; default ${INPUT_DEFAULTS.scrollPx} px), or exact amounts in both axes ` +
      '(dx, dy in pixels; positive right and down), sent as pixels where the platform scrolls smoothly (macOS), ' +
      'else as the nearest wheel steps (X11), which the answer says.',
    input: z
      .object({
        direction: z.enum(['up', 'down', 'left', 'right']).optional(),
        amount: z.number().min(1).max(50_000).optional().describe('Pixels, with direction.'),
        dx: z.number().int().min(-50_000).max(50_000).optional().describe('Pixels right (negative: left).'),
        dy: z.number().int().min(-50_000).max(50_000).optional().describe('Pixels down (negative: up).'),
        x: point.x.optional(),
        y: point.y.optional(),
        ref: refParam.optional().describe('Scroll over this element (e.g. a list); its centre is used.'),
      })
      .refine((a) => (a.x === undefined) === (a.y === undefined), { message: 'give both x and y' })
      .refine((a) => a.ref === undefined || a.x === undefined, { message: 'give x and y, or ref, not both' })
      .refine((a) => (a.direction === undefined) !== (a.dx === undefined && a.dy === undefined), {
        message: 'give direction (with amount), or dx and/or dy',
      })
      .refine((a) => a.direction !== undefined || (a.dx ?? 0) !== 0 || (a.dy ?? 0) !== 0, {
        message: 'dx and dy are both 0: nothing to scroll',
      })
      .refine((a) => a.direction !== undefined || a.amount === undefined, {
        message: 'amount goes with direction; with dx and dy, they are the amounts',
      }),
    output: structured.action,
    annotations: WRITE,
    inverse: async (args) =>
      args.direction === undefined
        ? {
            tool: 'scroll',
            args: { ...args, dx: -(args.dx ?? 0), dy: -(args.dy ?? 0) },
            what: 'a scroll back by the same amounts',
          }
        : {
            tool: 'scroll',
            args: { ...args, direction: OPPOSITE[args.direction] },
            what: `a scroll back ${OPPOSITE[args.direction]}`,
          },
    handle: (args, { engine, signal }) => {
      const spot = args.ref === undefined && args.x === undefined ? undefined : spotOf(args);
      return args.direction === undefined
        ? engine.input.scrollBy(args.dx ?? 0, args.dy ?? 0, spot, { signal })
        : engine.input.scroll(args.direction, args.amount ?? INPUT_DEFAULTS.scrollPx, spot, { signal });
    },
  }),
  defineTool({
    name: 'type_text',
    title: 'Type text',
    description:
      'Type text as key presses, any Unicode, into the element that has keyboard focus, or into ref or path ' +
      '(focused first; typing waits until it reports focus). clear_first selects all and deletes before typing; submit ' +
      'presses Enter after. "\\n" presses Enter. Use set_value instead to replace a field\'s text at once. The ' +
      'answer never repeats the text.',
    input: z
      .object({
        text: z.string().min(1).max(100_000),
        ref: refParam.optional().describe('Type into this element.'),
        path: pathParam.optional().describe('Type into the element at this path (instead of ref).'),
        delay_ms: z
          .number()
          .int()
          .min(0)
          .max(1000)
          .optional()
          .describe('Pause between characters; default 0.'),
        clear_first: z.boolean().optional().describe("Select all and delete the field's text first."),
        submit: z.boolean().optional().describe('Press Enter after typing.'),
        background: backgroundParam.describe(
          'true: type into ref without focusing it (its text set through the accessibility layer, the new text ' +
            'at its end; submit needs the focus and is refused). Default: MACPILOT_INPUT.',
        ),
      })
      .refine((args) => args.ref === undefined || args.path === undefined, {
        message: 'give ref or path, not both (neither: the element that has keyboard focus)',
      }),
    output: structured.action,
    annotations: WRITE,
    // Typed where the focus is: the focused element's value (the keys go there, in the active app).
    inverse: async (args, context) =>
      args.ref || args.path
        ? previousValue({ ref: args.ref, path: args.path }, context)
        : previousFocusedValue(context),
    handle: (args, { engine, signal }) =>
      engine.input.typeText(
        {
          text: args.text,
          target:
            args.ref === undefined && args.path === undefined
              ? undefined
              : { ref: args.ref, path: args.path },
          delayMs: args.delay_ms,
          clearFirst: args.clear_first,
          submit: args.submit,
        },
        { signal },
      ),
  }),
  defineTool({
    name: 'press_key',
    title: 'Press a key',
    description:
      'Press a key or a chord in the element that has keyboard focus, e.g. "enter", "escape", "tab", "down", ' +
      '"pageup", "f5", "ctrl+shift+s", "cmd+z", "alt+f4". Keys: enter (return), escape (esc), tab, space, ' +
      'backspace, delete (forward), insert, menu, up/down/left/right, home, end, pageup, pagedown, f1-f20, ' +
      'printscreen, scrolllock, pause, numpad0-numpad9, numpadenter (and numpadplus, minus, multiply, divide, ' +
      'decimal, equal), a-z, ' +
      '0-9 and the ' +
      `characters , . / - = ; ' \` [ ] \\ + (or their names: comma, period, slash, minus, ...). ${MODIFIERS_HELP} ` +
      'For text, use type_text.',
    input: z.object({
      key: z.string().min(1).max(64).describe('A key name or chord: "enter", "ctrl+s", "Command+Shift+Z".'),
      modifiers: modifiersParam.optional().describe('Held in addition to those in key.'),
      repeat: z.number().int().min(1).max(100).optional().describe('Press it this many times; default 1.'),
      background: backgroundParam.describe(
        'true: keys go where the keyboard focus is, so without app this refuses rather than press; with app, ' +
          'on macOS, the key is sent to that app alone. Default: MACPILOT_INPUT.',
      ),
      app: z
        .string()
        .min(1)
        .max(256)
        .optional()
        .describe(
          'The app (name or pid) the key is for. In the background on macOS it is sent to that app, its focus ' +
            'untouched (X11 has no such delivery: on Linux the key is refused in the background); in the ' +
            'foreground it is pressed only if the keyboard focus is in that app, else refused.',
        ),
    }),
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) =>
      engine.input.pressKey(args.key, args.modifiers ?? [], args.repeat ?? 1, { signal }, args.app),
  }),
  defineTool({
    name: 'mouse_down',
    title: 'Press a mouse button and hold it',
    description:
      'Press a mouse button at a screen point (the pointer moves there first) or where the pointer is, and ' +
      'leave it down: mouse_up releases it. For drags the agent steers itself, or a press held while keys are ' +
      `pressed. Held buttons are listed in session_info and released when the session ends. ${INPUT_NOTE}`,
    input: heldButtonInput,
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, holder, signal }) =>
      engine.held.press(buttonPart(args), holder, optionalSpot(args), { signal }),
  }),
  defineTool({
    name: 'mouse_up',
    title: 'Release a held mouse button',
    description:
      'Release a button mouse_down pressed, at a screen point (the pointer moves there first) or where the ' +
      `pointer is. A button this session does not hold is left alone, and the answer says so. ${INPUT_NOTE}`,
    input: heldButtonInput,
    output: structured.action,
    annotations: WRITE,
    handle: async (args, { engine, holder, signal, note }) =>
      released(await engine.held.release(buttonPart(args), holder, optionalSpot(args), { signal }), note),
  }),
  defineTool({
    name: 'key_down',
    title: 'Press a key and hold it',
    description:
      'Press one key and leave it down across calls: a modifier (shift, control, option/alt, command, super) ' +
      'for shift-clicks and the like, or any key press_key names (a game key). key_up releases it; held keys ' +
      'are listed in session_info and released when the session ends.',
    input: heldKeyInput,
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, holder, signal }) =>
      engine.held.press({ kind: 'key', key: heldKeyNamed(args.key) }, holder, undefined, { signal }),
  }),
  defineTool({
    name: 'key_up',
    title: 'Release a held key',
    description:
      'Release a key key_down pressed. A key this session does not hold is left alone, and the answer says so.',
    input: heldKeyInput,
    output: structured.action,
    annotations: WRITE,
    handle: async (args, { engine, holder, signal, note }) =>
      released(
        await engine.held.release({ kind: 'key', key: heldKeyNamed(args.key) }, holder, undefined, {
          signal,
        }),
        note,
      ),
  }),
  defineTool({
    name: 'get_cursor_position',
    title: 'Where the pointer is',
    description:
      'The pointer position in screen points (the space of element bounds, clicks and screenshots) and the ' +
      'display it is on.',
    input: z.object({}),
    output: { schema: CursorJson },
    annotations: READ_ONLY,
    handle: async (_args, { engine, signal }) => {
      const { at, display } = await engine.input.pointer({ signal });
      const on = display ? `display ${describeDisplay(display)}` : 'no display';
      return {
        content: [{ type: 'text', text: `The pointer is at ${at.x},${at.y} (screen points), on ${on}.` }],
        structuredContent: { x: at.x, y: at.y, display: display?.id ?? null },
      };
    },
  }),
]);
