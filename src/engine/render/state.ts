/**
 * The desktop's and an app's state as JSON (MCP resources, `--format json`), with the untrusted-data fence as a
 * field: titles and names come from the apps.
 */
import { z } from 'zod';
import { DATA_FENCE } from '../../untrusted.js';
import {
  type DetectedPattern,
  UI_PATTERNS,
  UI_STATES,
  type AppOverview,
  type AppStateResult,
  type DesktopResult,
} from '../kernel/results.js';
import {
  AppOffLimits,
  ElementJson,
  elementJson,
  HiddenByPolicy,
  hiddenJson,
  WindowJson,
  windowJson,
} from './json.js';

const AppActivityJson = z.enum(['active', 'background', 'minimized', 'windowless']);

const AppOverviewJson = z.object({
  name: z.string(),
  pid: z.number().int(),
  bundle_id: z
    .string()
    .optional()
    .describe('The bundle id (macOS) or the desktop file id (Linux), if known.'),
  state: AppActivityJson,
  windows: z.array(WindowJson),
});

export const DesktopJson = z.object({
  note: z.literal(DATA_FENCE),
  apps: z.array(AppOverviewJson.extend({ off_limits: AppOffLimits })),
  hidden_by_policy: HiddenByPolicy,
});

const PatternJson = z.object({
  pattern: z.enum(UI_PATTERNS),
  at: z.object({ ref: z.string(), role: z.string(), name: z.string() }).describe('Where it was seen.'),
  suggestions: z
    .array(
      z.object({
        part: z.string(),
        action: z.string(),
        tool: z.string(),
        ref: z.string().optional().describe('The element the step takes.'),
        text: z
          .string()
          .optional()
          .describe(
            'The words on screen the step takes, read by OCR when the app has no accessibility tree.',
          ),
        point: z
          .object({ x: z.number(), y: z.number() })
          .optional()
          .describe('The centre of those words, in screen points: where the click goes.'),
      }),
    )
    .describe('Next steps an agent may take; nothing runs on its own.'),
});

export const AppStateJson = AppOverviewJson.extend({
  note: z.literal(DATA_FENCE),
  dialog: z.object({ role: z.string(), title: z.string() }).optional(),
  focused: ElementJson.optional(),
  menu_bar: z.array(z.string()).optional(),
  detected_state: z.enum(UI_STATES),
  state_reason: z.string(),
  detected_patterns: z.array(PatternJson),
});

const patternJson = (p: DetectedPattern): z.infer<typeof PatternJson> => ({
  pattern: p.pattern,
  at: { ref: p.at.ref, role: p.at.role, name: p.at.info.name },
  suggestions: p.steps.map((s) => ({
    part: s.part,
    action: s.action,
    tool: s.tool,
    ...(s.node ? { ref: s.node.ref } : { text: s.words.text, point: s.point }),
  })),
});

const overviewJson = (o: AppOverview): z.infer<typeof AppOverviewJson> => ({
  name: o.app.name,
  pid: o.app.pid,
  ...(o.app.bundleId ? { bundle_id: o.app.bundleId } : {}),
  state: o.state,
  windows: o.windows.map(windowJson),
});

export const desktopJson = (r: DesktopResult): z.infer<typeof DesktopJson> => ({
  note: DATA_FENCE,
  apps: r.apps.map((o) => ({
    ...overviewJson(o),
    ...(r.offLimits.includes(o.app.pid) ? { off_limits: true as const } : {}),
  })),
  ...hiddenJson(r.hidden),
});

export const appStateJson = (r: AppStateResult): z.infer<typeof AppStateJson> => ({
  note: DATA_FENCE,
  ...overviewJson(r),
  ...(r.dialog ? { dialog: r.dialog } : {}),
  ...(r.focused ? { focused: elementJson(r.focused) } : {}),
  ...(r.menuBar ? { menu_bar: r.menuBar } : {}),
  detected_state: r.ui.state,
  state_reason: r.ui.because,
  detected_patterns: r.ui.patterns.map(patternJson),
});
