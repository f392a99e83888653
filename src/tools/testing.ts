/**
 * The testing toolset (off by default): assertions on an element's state, visual regression against a baseline
 * image, and an accessibility audit. All read-only; the audit's Tab tour moves keyboard focus and puts it back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { EXPECTATION_NAMES } from '../engine/testing/assert.js';
import { AUDIT_SCOPES, AUDIT_STANDARDS } from '../engine/testing/accessibility-audit.js';
import { RULE_CRITERIA } from '../engine/testing/accessibility-rules.js';
import { renderText } from '../engine/render/text.js';
import { structured } from '../engine/render/json.js';
import { BASELINE_NAME, VISUAL_DIFF_DEFAULTS } from '../engine/testing/visual-diff.js';
import {
  appParam,
  captureArea,
  oneCaptureArea,
  pathParam,
  refParam,
  screenRegion,
  waitMs,
} from './params.js';
import { defineTool, READ_ONLY, toolsetTools } from './types.js';

const assertions = z
  .object({
    exists: z.boolean().optional().describe('It is there (a query: at least one element matches).'),
    enabled: z.boolean().optional(),
    focused: z.boolean().optional().describe('It has keyboard focus.'),
    checked: z.boolean().optional(),
    selected: z.boolean().optional(),
    value: z.string().max(100_000).optional().describe('Its whole value (numbers and toggles as text).'),
    name: z.string().max(10_000).optional().describe('Its whole name (whitespace collapsed).'),
    role: z.string().min(1).max(64).optional().describe('Its role, e.g. "button".'),
    visible: z.boolean().optional().describe('On screen, with an area.'),
    contains_text: z
      .string()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Part of its name, value or description (case-sensitive).'),
    count: z.number().int().min(0).max(100_000).optional().describe('How many elements match the query.'),
  })
  .strict()
  .refine((a) => Object.values(a).some((v) => v !== undefined), {
    message: `give at least one assertion: ${EXPECTATION_NAMES.join(', ')}`,
  });

export const testingTools = toolsetTools('testing', [
  defineTool({
    name: 'assert_element',
    title: 'Assert an element state',
    description:
      'Check that an element is as expected: by ref or path, or the first match of a query (app with role, ' +
      'name, text). Answers passed, and one failure per assertion that did not hold (property, expected, ' +
      'actual). With timeout_ms it waits, re-checking whenever the app changes, until the assertions hold; a ' +
      'failure after the wait is still an answer, not an error.',
    input: z
      .object({
        ref: refParam.optional(),
        path: pathParam.optional(),
        app: appParam.optional().describe('The app a query searches; default the active app.'),
        role: z.string().min(1).max(64).optional().describe('Query: the role, e.g. "button".'),
        name: z.string().min(1).max(1000).optional().describe('Query: part of the name.'),
        text: z
          .string()
          .min(1)
          .max(1000)
          .optional()
          .describe('Query: part of the name, value or description.'),
        match: z
          .enum(['contains', 'exact', 'regex'])
          .optional()
          .describe('How name and text match; default contains.'),
        include_hidden: z.boolean().optional().describe('Query also elements not on screen.'),
        assertions,
        timeout_ms: waitMs(0).describe(
          'Wait up to this long for the assertions to hold; default 0 (check once).',
        ),
      })
      .refine(
        (a) => [a.ref, a.path, a.role ?? a.name ?? a.text].filter((v) => v !== undefined).length === 1,
        { message: 'give exactly one of ref, path, or a query (role, name, text)' },
      ),
    output: structured.assert,
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) => {
      const byQuery = args.ref === undefined && args.path === undefined;
      return engine.asserts.assert(
        {
          target: byQuery ? undefined : { ref: args.ref, path: args.path },
          query: byQuery
            ? {
                app: args.app,
                role: args.role,
                name: args.name,
                text: args.text,
                match: args.match,
                includeHidden: args.include_hidden,
              }
            : undefined,
          expect: args.assertions,
          timeoutMs: args.timeout_ms,
        },
        { signal },
      );
    },
  }),
  defineTool({
    name: 'visual_diff',
    task: true,
    title: 'Compare the screen with a baseline',
    description:
      "Visual regression: capture an app's window (or a window, region or display, as take_screenshot) and " +
      'compare it pixel by pixel with a baseline: a PNG file path, baseline://NAME saved earlier in this ' +
      'session, or base64 PNG. Anti-aliased pixels are not counted; ignore_regions (screen points) leave ' +
      'changing parts out (a clock). Answers passed, diff_percentage, diff_pixels, total_pixels, size_mismatch ' +
      'and an image of the changed pixels in red over the faded capture. save_baseline: NAME keeps this capture ' +
      'as baseline://NAME (in memory, for this session).',
    input: z
      .object({
        ...captureArea,
        baseline: z
          .string()
          .min(1)
          .max(30_000_000)
          .optional()
          .describe(
            'An absolute .png path (under the client roots, if it declares any), baseline://NAME, or base64 PNG.',
          ),
        threshold: z
          .number()
          .min(0)
          .max(100)
          .optional()
          .describe(
            `Percent of pixels that may differ and still pass; default ${VISUAL_DIFF_DEFAULTS.thresholdPercent}.`,
          ),
        ignore_regions: z
          .array(screenRegion)
          .max(100)
          .optional()
          .describe('Screen areas (points) left out of the comparison.'),
        save_baseline: z
          .string()
          .regex(BASELINE_NAME, 'a name of letters, digits, ".", "_" and "-", e.g. "login-dialog"')
          .optional()
          .describe('Keep this capture as baseline://NAME for later calls in this session.'),
      })
      .refine(...oneCaptureArea)
      .refine((a) => a.baseline !== undefined || a.save_baseline !== undefined, {
        message: 'give baseline, save_baseline, or both',
      }),
    output: { schema: structured.visualDiff.schema },
    annotations: READ_ONLY,
    handle: async (args, { engine, signal, baselines, roots }): Promise<CallToolResult> => {
      const result = await engine.visualDiffs.compare(
        {
          area: { app: args.app, window: args.window, region: args.region, display: args.display },
          baseline: args.baseline,
          thresholdPercent: args.threshold,
          ignore: args.ignore_regions,
          saveAs: args.save_baseline,
          roots,
          baselines,
        },
        { signal },
      );
      const text = { type: 'text' as const, text: renderText(result) };
      const image = result.image && {
        type: 'image' as const,
        data: result.image.data,
        mimeType: result.image.mimeType,
      };
      return {
        content: image ? [image, text] : [text],
        structuredContent: structured.visualDiff.json(result),
      };
    },
  }),
  defineTool({
    name: 'audit_accessibility',
    task: true,
    title: 'Audit accessibility',
    description:
      "Audit an app's window (default the focused one), another window, or a ref's subtree for accessibility " +
      `problems against WCAG: ${[...RULE_CRITERIA].map(([rule, criterion]) => `${rule} (${criterion})`).join('; ')}. ` +
      'Contrast is measured on screen pixels; the keyboard check presses Tab through the active window, ' +
      'watching focus, and puts focus back. Answers each issue (severity, rule, ref, path, what is wrong, how to ' +
      'fix it), a 0-100 score and a summary.',
    input: z.object({
      app: appParam.optional(),
      scope: z
        .enum(AUDIT_SCOPES)
        .optional()
        .describe('window (with window), focused_window (default: the active window), or ref.'),
      window: z
        .union([z.string().min(1).max(512), z.number().int().min(0)])
        .optional()
        .describe("scope window: a title (or part of it) or an index among the app's windows; default 0."),
      ref: refParam.optional().describe('scope ref: the element whose subtree is audited.'),
      standards: z
        .array(z.enum(AUDIT_STANDARDS))
        .min(1)
        .max(AUDIT_STANDARDS.length)
        .optional()
        .describe('WCAG levels; the highest is checked. Default ["wcag_aa"].'),
      keyboard: z.boolean().optional().describe('Tab through the window (default true).'),
      contrast: z.boolean().optional().describe('Measure text contrast on screen (default true).'),
    }),
    output: structured.audit,
    annotations: READ_ONLY,
    handle: (args, { engine, signal, progress }) =>
      engine.audits.audit(
        {
          app: args.app,
          scope: args.scope ?? (args.ref === undefined ? undefined : 'ref'),
          window: args.window,
          ref: args.ref,
          standards: args.standards,
          keyboard: args.keyboard,
          contrast: args.contrast,
          progress,
        },
        { signal },
      ),
  }),
]);
