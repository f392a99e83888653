/** wait_for and observe_changes (ui toolset): wait until an app's UI shows what the agent expects, or watch it. */
import { structured } from '../engine/render/json.js';
import { z } from 'zod';
import { CHANGE_CATEGORIES } from '../engine/features/observe.js';
import { WAIT_CONDITIONS, WAIT_DEFAULTS } from '../engine/features/wait-conditions.js';
import { appParam, pathParam, refParam, waitMs } from './params.js';
import { defineTool, toolsetTools, READ_ONLY } from './types.js';

export const waitTools = toolsetTools('ui', [
  defineTool({
    name: 'wait_for',
    task: true,
    title: 'Wait for a UI condition',
    description:
      'Wait until a condition holds, re-checking whenever the app changes: appears / disappears (an element by ' +
      'ref or path, or by text / role / name as find_elements), value_equals / value_contains (ref or path + ' +
      'text), text_appears (text anywhere in the app), enabled, focused (ref or path), window_title (a window ' +
      'title contains text), app_idle (no UI change for idle_ms). Answers how long it took and the element; on ' +
      'timeout, an error with what was last seen.',
    input: z.object({
      condition: z.enum(WAIT_CONDITIONS),
      app: appParam.optional(),
      ref: refParam.optional(),
      path: pathParam.optional(),
      text: z
        .string()
        .min(1)
        .max(10_000)
        .optional()
        .describe('The value, text or title part to wait for; for appears / disappears, text to find.'),
      role: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .describe('appears / disappears: a role to find, e.g. "button".'),
      name: z.string().min(1).max(1000).optional().describe('appears / disappears: a name to find.'),
      timeout_ms: waitMs(0).describe(`How long to wait; default ${WAIT_DEFAULTS.timeoutMs}.`),
      idle_ms: waitMs(10).describe(
        `app_idle: how long without a UI change; default ${WAIT_DEFAULTS.idleMs}.`,
      ),
    }),
    output: structured.wait,
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) =>
      engine.waits.waitFor(
        {
          condition: args.condition,
          app: args.app,
          ref: args.ref,
          path: args.path,
          text: args.text,
          role: args.role,
          name: args.name,
          timeoutMs: args.timeout_ms,
          idleMs: args.idle_ms,
        },
        { signal },
      ),
  }),
  defineTool({
    name: 'observe_changes',
    task: true,
    title: 'Watch an app for changes',
    description:
      "Collect an app's UI changes for up to duration_ms and answer them in words, one a line: window opened, " +
      'focus moved to …, value of … changed to …, elements added or removed. With events (kinds of change) or ' +
      'ref (one element), it answers at the first change that matches. For clients that cannot subscribe to ' +
      'the macpilot://app/{name}/tree or /events resources.',
    input: z.object({
      app: appParam,
      events: z
        .array(z.enum(CHANGE_CATEGORIES))
        .min(1)
        .max(CHANGE_CATEGORIES.length)
        .optional()
        .describe(
          'Only these kinds of change; answers at the first one. layout (moves, resizes) is left out unless asked for.',
        ),
      ref: refParam.optional().describe('Only changes of this element; answers at the first one.'),
      duration_ms: waitMs(10).describe('How long to watch; default 5000.'),
    }),
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) =>
      engine.observations.observe(
        { app: args.app, events: args.events, ref: args.ref, durationMs: args.duration_ms ?? 5_000 },
        { signal },
      ),
  }),
]);
