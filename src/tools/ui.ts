/** The ui toolset: read the accessibility tree and act on its elements. */
import { SNAPSHOT_DEFAULTS } from '../engine/kernel/tree.js';
import { structured } from '../engine/render/json.js';
import { z } from 'zod';
import { appParam, backgroundParam, exactlyOneTarget, refParam, TARGET_MESSAGE, target } from './params.js';
import { previousValue } from './inverses.js';
import { defineTool, toolsetTools, READ_ONLY, WRITE } from './types.js';

const targetInput = <Extra extends z.ZodRawShape>(extra: Extra) =>
  z.object({ ...target, ...extra }).refine(exactlyOneTarget, { message: TARGET_MESSAGE });

export const uiTools = toolsetTools('ui', [
  defineTool({
    name: 'snapshot_ui',
    title: 'Snapshot the UI tree',
    description:
      'The accessibility tree of an app (default: the active app) as compact text, one element a line with its ' +
      'ref, e.g. `- button "Save" [ref=e12] disabled`. Use the refs with the other ui tools. Large trees are cut; ' +
      'the last line says what was cut and how to see it (a subtree by ref, a deeper depth, find_elements). A ' +
      'line under the title names the kind of screen it recognises (a save dialog, a login form, an editor...) ' +
      "with the refs to use next, and the app's state (loading, error, modal_dialog...).",
    input: z.object({
      app: appParam.optional(),
      window: z
        .union([z.string().min(1).max(512), z.number().int().min(0)])
        .optional()
        .describe(
          "Only this window: its title (or part of it) or its index among the app's windows. A title also picks among several running apps of one name.",
        ),
      ref: refParam.optional().describe('Only the subtree under this element.'),
      depth: z.number().int().min(1).max(64).optional().describe('How many levels to show.'),
      roles: z
        .array(z.string().min(1).max(64))
        .max(32)
        .optional()
        .describe('Only elements of these roles, e.g. ["button", "textbox"].'),
      max_nodes: z
        .number()
        .int()
        .min(1)
        .max(SNAPSHOT_DEFAULTS.maxNodesLimit)
        .optional()
        .describe('At most this many lines.'),
      include_hidden: z.boolean().optional().describe('Also show elements that are not on screen.'),
    }),
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) =>
      engine.elements.snapshot(
        {
          app: args.app,
          window: args.window,
          ref: args.ref,
          depth: args.depth,
          roles: args.roles,
          maxNodes: args.max_nodes,
          includeHidden: args.include_hidden,
        },
        { signal },
      ),
  }),
  defineTool({
    name: 'find_elements',
    title: 'Find UI elements',
    description:
      'Search an app (default: the active app) for elements by text, role, name, value or identifier. Text ' +
      'matches name, value or description. Matching is case-insensitive "contains" by default.',
    input: z
      .object({
        app: appParam.optional(),
        text: z.string().min(1).max(1000).optional(),
        role: z.string().min(1).max(64).optional().describe('e.g. "button", "textbox", "menuitem".'),
        name: z.string().min(1).max(1000).optional(),
        value: z.string().min(1).max(1000).optional(),
        identifier: z.string().min(1).max(1000).optional(),
        match: z
          .enum(['contains', 'exact', 'regex'])
          .optional()
          .describe('How strings match; default contains.'),
        within: refParam.optional().describe('Search only under this element.'),
        max_results: z.number().int().min(1).max(500).optional(),
        include_hidden: z.boolean().optional().describe('Also match elements that are not on screen.'),
      })
      .refine((q) => [q.text, q.role, q.name, q.value, q.identifier].some((v) => v !== undefined), {
        message: 'give at least one of text, role, name, value or identifier',
      }),
    output: structured.matches,
    annotations: READ_ONLY,
    handle: async (args, { engine, signal, enabledTools }) => ({
      ...(await engine.elements.find(
        {
          app: args.app,
          text: args.text,
          role: args.role,
          name: args.name,
          value: args.value,
          identifier: args.identifier,
          match: args.match,
          within: args.within,
          maxResults: args.max_results,
          includeHidden: args.include_hidden,
        },
        { signal },
      )),
      screenText: enabledTools.includes('find_text'),
    }),
  }),
  defineTool({
    name: 'get_element',
    title: 'Get one element',
    description:
      'Everything about one element: role, name, value, description, identifier, states, bounds, actions, ' +
      'attributes and its path.',
    input: targetInput({}),
    output: structured.element,
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) => engine.elements.getElement(args, { signal }),
  }),
  defineTool({
    name: 'get_focused_element',
    title: 'Get the focused element',
    description: 'The element that has keyboard focus, in an app or (default) in the active app.',
    input: z.object({ app: appParam.optional() }),
    output: structured.located,
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) => engine.elements.focused(args.app, { signal }),
  }),
  defineTool({
    name: 'element_at',
    title: 'Element at a point',
    description: 'The deepest element at a screen point (screen points, origin at the top left).',
    input: z.object({
      x: z.number().min(-100_000).max(100_000),
      y: z.number().min(-100_000).max(100_000),
    }),
    output: structured.located,
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) => engine.elements.elementAt(args.x, args.y, { signal }),
  }),
  defineTool({
    name: 'click_element',
    title: 'Click an element',
    description:
      "Click an element by ref or path. A plain left click uses the element's own press action (the pointer and " +
      'the focus stay where they are; a web page hears it as a click); otherwise, on a text field (whose own ' +
      "action is Enter), and where the toolkit needs one (GTK's visible buttons), a synthetic click at its " +
      'centre, which moves the pointer: the answer says which. Returns what changed.',
    input: targetInput({
      button: z.enum(['left', 'right', 'middle']).optional(),
      count: z.number().int().min(1).max(3).optional().describe('2 for a double click.'),
      modifiers: z
        .array(z.enum(['command', 'control', 'option', 'shift']))
        .max(4)
        .optional()
        .describe('Keys held during the click.'),
      background: backgroundParam,
    }),
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) =>
      engine.elements.click(
        { ref: args.ref, path: args.path },
        { button: args.button, count: args.count, modifiers: args.modifiers },
        { signal },
      ),
  }),
  defineTool({
    name: 'perform_action',
    title: 'Perform an element action',
    description:
      'Perform one of the actions get_element lists for the element (e.g. "click", "activate", "AXPress", ' +
      '"AXShowMenu"). Returns what changed.',
    input: targetInput({ action: z.string().min(1).max(128) }),
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) =>
      engine.elements.perform({ ref: args.ref, path: args.path }, args.action, { signal }),
  }),
  defineTool({
    name: 'set_value',
    title: 'Set an element value',
    description:
      'Set the value of an element: text for text fields, a number for sliders and spin buttons, true/false for ' +
      "check boxes and toggles, an option's name for a web page's select (combobox). Returns what changed.",
    input: targetInput({
      value: z.union([z.string().max(1_000_000), z.number(), z.boolean()], {
        error: 'a value is text, a number or true/false',
      }),
    }),
    output: structured.action,
    annotations: { ...WRITE, idempotentHint: true },
    inverse: (args, context) => previousValue({ ref: args.ref, path: args.path }, context),
    handle: (args, { engine, signal }) =>
      engine.elements.setValue({ ref: args.ref, path: args.path }, args.value, { signal }),
  }),
  defineTool({
    name: 'scroll_to_element',
    title: 'Scroll an element into view',
    description:
      'Scroll the list or page that holds an element until the element is on screen (by the app’s own ' +
      'scrolling where it has it, else with the mouse wheel over the container). Returns what changed.',
    input: targetInput({}),
    output: structured.action,
    annotations: { ...WRITE, idempotentHint: true },
    handle: (args, { engine, signal }) => engine.reveal.scrollToElement(args, { signal }),
  }),
  defineTool({
    name: 'focus_element',
    title: 'Focus an element',
    description: 'Give an element keyboard focus (a window: bring it to the front).',
    input: targetInput({}),
    output: structured.action,
    annotations: { ...WRITE, idempotentHint: true },
    handle: (args, { engine, signal }) => engine.elements.focus(args, { signal }),
  }),
]);
