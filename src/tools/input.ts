/** The input toolset: synthetic mouse and keyboard, at screen points or at an element's centre. */
import { structured } from '../engine/render/json.js';
import { z } from 'zod';
import { INPUT_DEFAULTS, PX_PER_WHEEL_STEP, type Spot } from '../engine/features/input.js';
import { refParam } from './params.js';
import { previousValue } from './inverses.js';
import { defineTool, toolsetTools, WRITE } from './types.js';

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
      `Scroll with the mouse wheel at a screen point, at an element's centre (ref), or where the pointer is. ` +
      `amount is in pixels, sent as wheel steps of ${PX_PER_WHEEL_STEP} px (one notch; how far a notch scrolls ` +
      `is up to the app). Default ${INPUT_DEFAULTS.scrollPx} px.`,
    input: z
      .object({
        direction: z.enum(['up', 'down', 'left', 'right']),
        amount: z.number().min(1).max(50_000).optional().describe('Pixels.'),
        x: point.x.optional(),
        y: point.y.optional(),
        ref: refParam.optional().describe('Scroll over this element (e.g. a list); its centre is used.'),
      })
      .refine((a) => (a.x === undefined) === (a.y === undefined), { message: 'give both x and y' })
      .refine((a) => a.ref === undefined || a.x === undefined, { message: 'give x and y, or ref, not both' }),
    output: structured.action,
    annotations: WRITE,
    inverse: async (args) => ({
      tool: 'scroll',
      args: { ...args, direction: OPPOSITE[args.direction] },
      what: `a scroll back ${OPPOSITE[args.direction]}`,
    }),
    handle: (args, { engine, signal }) =>
      engine.input.scroll(
        args.direction,
        args.amount ?? INPUT_DEFAULTS.scrollPx,
        args.ref === undefined && args.x === undefined ? undefined : spotOf(args),
        { signal },
      ),
  }),
  defineTool({
    name: 'type_text',
    title: 'Type text',
    description:
      'Type text as key presses, any Unicode, into the element that has keyboard focus, or into ref (focused ' +
      'first; typing waits until it reports focus). clear_first selects all and deletes before typing; submit ' +
      'presses Enter after. "\\n" presses Enter. Use set_value instead to replace a field\'s text at once. The ' +
      'answer never repeats the text.',
    input: z.object({
      text: z.string().min(1).max(100_000),
      ref: refParam.optional().describe('Type into this element.'),
      delay_ms: z.number().int().min(0).max(1000).optional().describe('Pause between characters; default 0.'),
      clear_first: z.boolean().optional().describe("Select all and delete the field's text first."),
      submit: z.boolean().optional().describe('Press Enter after typing.'),
    }),
    output: structured.action,
    annotations: WRITE,
    // Undone only where it names its field: typed into whatever has focus, nothing says where it went.
    inverse: async (args, context) => (args.ref ? previousValue({ ref: args.ref }, context) : undefined),
    handle: (args, { engine, signal }) =>
      engine.input.typeText(
        {
          text: args.text,
          target: args.ref === undefined ? undefined : { ref: args.ref },
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
      'backspace, delete (forward), up/down/left/right, home, end, pageup, pagedown, f1-f12, a-z, 0-9 and the ' +
      `characters , . / - = ; ' \` [ ] \\ + (or their names: comma, period, slash, minus, ...). ${MODIFIERS_HELP} ` +
      'For text, use type_text.',
    input: z.object({
      key: z.string().min(1).max(64).describe('A key name or chord: "enter", "ctrl+s", "Command+Shift+Z".'),
      modifiers: modifiersParam.optional().describe('Held in addition to those in key.'),
      repeat: z.number().int().min(1).max(100).optional().describe('Press it this many times; default 1.'),
    }),
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) =>
      engine.input.pressKey(args.key, args.modifiers ?? [], args.repeat ?? 1, { signal }),
  }),
]);
