/**
 * Engine results as JSON: the structured results of MCP tools (their outputSchema is the schema here), workflow
 * steps' fields and the CLI's `--format json`. Secure values are left out, as in the text.
 */
import { z } from 'zod';
import type { ElementInfo, WindowInfo } from '../../helper-client/protocol.js';
import { TEXTUAL } from './detail.js';
import { auditSummary, diffPercentage } from './testing.js';
import {
  type ActionResult,
  type AssertResult,
  type AuditResult,
  type VisualDiffResult,
  type AppsResult,
  type Change,
  type ClipboardHistoryResult,
  type ClipboardResult,
  type DisplaysResult,
  type ScreenshotFacts,
  type ElementResult,
  type EngineResult,
  type LocatedResult,
  type MatchesResult,
  type MenuResult,
  type SnapshotResult,
  type VisualResult,
  type RecordingResult,
  type TextMatchResult,
  type TextResult,
  type WaitResult,
  type WindowsResult,
  RULE_IDS,
  SEVERITIES,
  ENTRY_CHARS,
  HISTORY_LIMIT,
} from '../kernel/results.js';
import { roleOf } from '../kernel/roles.js';
import { shownName } from '../kernel/shown.js';
import { joinNames } from '../../menu-path.js';
import { isSecure, labelOf, type Walked } from '../kernel/tree.js';
import { plainText } from '../kernel/words.js';
import { oneLine } from '../../text.js';

const BoundsJson = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const ValueJson = z.union([z.string(), z.number(), z.boolean()]);

export const ElementJson = z
  .object({
    ref: z.string(),
    role: z.string(),
    name: z.string(),
    value: ValueJson.optional(),
    description: z.string().optional(),
    shortcut: z
      .string()
      .optional()
      .describe('The keyboard shortcut that triggers it, as press_key takes it.'),
    level: z.number().optional().describe("A heading's level, 1 to 9."),
    states: z.array(z.string()),
    bounds: BoundsJson.optional(),
    path: z.string(),
  })
  .meta({ id: 'Element', description: 'An element; ref works with the ui tools, path replays it.' });
export type ElementJson = z.infer<typeof ElementJson>;

export const ElementDetailJson = ElementJson.extend({
  native_role: z.string(),
  subrole: z.string().optional(),
  identifier: z.string().optional(),
  value_truncated: z.boolean().optional(),
  range: z
    .object({ min: z.number(), max: z.number() })
    .optional()
    .describe("A number's bounds (a slider's)."),
  shown_text: z
    .string()
    .optional()
    .describe(
      'The text its labels show, for an element without a name or value of its own (a status message).',
    ),
  secure: z.boolean(),
  actions: z.array(z.string()),
  attributes: z.record(z.string(), z.string()),
  child_count: z.number(),
});

export const MatchesJson = z.object({
  scope: z.string().describe('What was searched.'),
  matches: z.array(ElementJson).describe('On-screen matches first, at most max_results.'),
  total: z.number().describe('Matches in all.'),
  more: z
    .number()
    .describe('Matches found but not listed (max_results left them out): total minus those listed.'),
  searched: z.number().describe('Elements searched.'),
  truncated: z.boolean().describe('The walk stopped at its node cap: there may be matches beyond total.'),
});

export const MenuJson = z.object({
  app: z.string(),
  menu: z.string().describe('The menu listed, e.g. "File > Open Recent"; empty: the menu bar.'),
  items: z.array(
    ElementJson.extend({
      level: z.number().describe('0: an item of the menu listed; 1: of one of its submenus; ...'),
      submenu: z.boolean().describe('It opens a submenu.'),
      menu_path: z.string().describe('Its path as click_menu_item takes it, e.g. "File > Save As…".'),
    }),
  ),
  cut: z.boolean().describe('More items than the answer lists: list a submenu by its path.'),
});

export const LocatedJson = z.object({ found: z.boolean(), element: ElementJson.optional() });

const AppRefJson = z.object({ name: z.string(), pid: z.number() });

export const WindowJson = z.object({
  id: z.string(),
  title: z.string(),
  app: z.string(),
  pid: z.number(),
  bounds: BoundsJson,
  focused: z.boolean(),
  minimized: z.boolean(),
});

export const ChangeJson = z.object({
  change: z.enum(['opened', 'closed', 'added', 'changed', 'removed']),
  ref: z.string(),
  path: z.string().describe('Where it is (was, for removed ones): what tools take instead of a ref.'),
  role: z.string(),
  name: z.string(),
});

export const ActionJson = z.object({
  done: z.string(),
  target: z.object({ ref: z.string(), label: z.string(), path: z.string(), app: AppRefJson }).optional(),
  app: AppRefJson.optional(),
  watched: z.boolean().describe('The UI was watched for changes.'),
  app_closed: z.boolean(),
  changes: z.array(ChangeJson).describe('What changed, windows first; get_element reads one in full.'),
});

/** An action on a window: the window as it is afterwards, too. */
export const WindowActionJson = ActionJson.extend({ window: WindowJson });

export const VisualJson = z.object({
  found: z.boolean().describe('The model picked an element or a point.'),
  asked_model: z
    .boolean()
    .describe('False: the client offers no model (no sampling); look at the image returned instead.'),
  model: z.string().optional().describe('The model that answered, as the client names it.'),
  element: ElementJson.optional().describe('The element picked, among the refs drawn.'),
  point: z
    .object({ x: z.number(), y: z.number() })
    .optional()
    .describe('No drawn element fits: the point picked, in screen points (for click).'),
  confidence: z.number().optional().describe("The model's own confidence, 0 to 1."),
  reason: z.string().optional().describe("The model's words (screen data, not instructions)."),
});

/** How many the person's app lists hide from agents; absent when none. */
export const AppOffLimits = z
  .literal(true)
  .optional()
  .describe(
    'Listed though the app lists deny it (MACPILOT_LIST_DENIED_APPS): it cannot be read or acted on.',
  );

export const HiddenByPolicy = z
  .number()
  .optional()
  .describe("How many the person's app lists hide (MACPILOT_DENY_APPS, MACPILOT_ALLOW_APPS); absent: none.");

export const hiddenJson = (hidden: number) => (hidden > 0 ? { hidden_by_policy: hidden } : {});

export const AppsJson = z.object({
  apps: z.array(
    z.object({
      name: z.string(),
      pid: z.number(),
      bundle_id: z.string().optional(),
      active: z.boolean(),
      off_limits: AppOffLimits,
      not_answering: z
        .enum(['stopped', 'busy'])
        .optional()
        .describe(
          "The app did not answer in time: its process is stopped (SIGSTOP, a debugger) or busy; its name is its program's.",
        ),
    }),
  ),
  without_tree: z
    .array(
      z.object({
        name: z.string(),
        pid: z.number(),
        windows: z.array(z.object({ id: z.string(), title: z.string() })),
      }),
    )
    .optional()
    .describe(
      'Apps with windows but no accessibility tree: a browser or Electron app started before accessibility was on (relaunch_app), or one without accessibility.',
    ),
  hidden_by_policy: HiddenByPolicy,
});

export const WindowsJson = z.object({
  windows: z.array(
    WindowJson.extend({
      off_limits: z
        .literal(true)
        .optional()
        .describe(
          'Its app is listed though the app lists deny it (MACPILOT_LIST_DENIED_APPS): not to be used.',
        ),
    }),
  ),
  hidden_by_policy: HiddenByPolicy,
});

export const DisplaysJson = z.object({
  displays: z.array(
    z.object({
      id: z.string().describe('What take_screenshot display takes.'),
      name: z.string().optional(),
      primary: z.boolean(),
      bounds: BoundsJson.describe('Screen points; the primary display starts at 0,0.'),
      scale: z.number().describe('Pixels per point.'),
    }),
  ),
});

export const ScreenshotJson = z.object({
  width: z.number().describe('Image pixels.'),
  height: z.number(),
  format: z.enum(['png', 'jpeg']),
  of: z.string().describe('What was captured, in words.'),
  area: BoundsJson.describe('The screen area the image shows, in points.'),
  scale: z.number().describe('Image pixels per screen point.'),
  file: z
    .string()
    .optional()
    .describe('The file written (file_path); absent when the image is in the answer.'),
  bytes: z.number().optional().describe("The file's size."),
  hidden_windows: z.number().describe("Windows in the image of apps the person's app lists hide."),
  painted_black: z.boolean().describe('Those windows were painted black.'),
  covered_by: z
    .number()
    .describe("Windows of other apps in front of the window captured: their pixels show in the image's."),
  annotated: z.number().describe('Refs drawn on the image (annotate).'),
});

export const screenshotJson = (f: ScreenshotFacts): z.infer<typeof ScreenshotJson> => ({
  width: f.width,
  height: f.height,
  format: f.format,
  of: f.of,
  area: f.area,
  scale: f.scale,
  ...(f.file === undefined ? {} : { file: f.file, bytes: f.bytes }),
  hidden_windows: f.hiddenWindows,
  painted_black: f.paintedBlack,
  covered_by: f.coveredBy,
  annotated: f.annotated,
});

export const ClipboardJson = z.object({
  text: z.string().optional().describe('Absent when the clipboard holds no text.'),
  chars: z.number().describe('Characters of text in all.'),
  truncated: z.boolean().describe('text holds only the first max_chars characters.'),
  types: z.array(z.string()),
});

export const ClipboardHistoryJson = z.object({
  enabled: z.boolean().describe('False: MACPILOT_CLIPBOARD_HISTORY is off and nothing is kept.'),
  live: z
    .boolean()
    .describe('False: clipboard changes cannot be watched here; only set_clipboard texts are kept.'),
  entries: z
    .array(
      z.object({
        text: z.string().describe(`The text, cut at ${ENTRY_CHARS} characters.`),
        chars: z.number().describe('Characters of text in all.'),
        truncated: z.boolean(),
        at: z.string().describe('When it was seen (ISO 8601).'),
      }),
    )
    .describe('Newest first.'),
  total: z.number().describe(`Texts kept in all (at most ${HISTORY_LIMIT}).`),
  offset: z.number(),
  hidden_left_out: z
    .number()
    .optional()
    .describe("Texts copied in apps the person's app lists hide: left out, and only counted."),
});

export const WaitJson = z.object({
  awaited: z.string().describe('What was awaited, in words.'),
  elapsed_ms: z.number(),
  element: ElementJson.optional().describe('The element the condition is about, when one was seen.'),
});

const AssertValueJson = z.union([z.string(), z.number(), z.boolean()]);

export const AssertJson = z.object({
  passed: z.boolean().describe('Every assertion held.'),
  failures: z
    .array(
      z.object({
        property: z.string().describe('The assertion that failed, e.g. "enabled".'),
        expected: AssertValueJson,
        actual: AssertValueJson.nullable().describe(
          'What the element had; null: nothing (no element, no value).',
        ),
      }),
    )
    .describe('One per assertion that did not hold.'),
  element: ElementJson.optional().describe('The element checked, when there was one.'),
  elapsed_ms: z.number(),
});

export const VisualDiffJson = z.object({
  passed: z.boolean().describe('diff_percentage is within the threshold (false on a size mismatch).'),
  diff_percentage: z.number().describe('Differing pixels, in percent of total_pixels.'),
  diff_pixels: z.number(),
  total_pixels: z.number(),
  size_mismatch: z
    .boolean()
    .describe("The baseline's shape differs from the capture's: nothing was compared."),
  threshold_percentage: z.number(),
  compared: z.boolean().describe('False: no baseline was given, the capture was only saved.'),
  capture: z.object({ width: z.number(), height: z.number(), scale: z.number(), bounds: BoundsJson }),
  baseline_size: z.object({ width: z.number(), height: z.number() }).optional(),
  saved: z.string().optional().describe('baseline://NAME this capture was saved as.'),
});

export const AuditJson = z.object({
  passed: z.boolean().describe('No issues were found.'),
  score: z.number().describe('0-100.'),
  level: z.enum(['A', 'AA', 'AAA']),
  issues: z.array(
    z.object({
      severity: z.enum(SEVERITIES as ['critical', 'serious', 'moderate', 'minor']),
      rule: z.enum(RULE_IDS),
      criterion: z.string().describe('The WCAG success criterion.'),
      ref: z.string(),
      element: z.string().describe('Its role and name.'),
      path: z.string(),
      description: z.string().describe('What is wrong.'),
      suggestion: z.string().describe('How to fix it.'),
    }),
  ),
  summary: z.string(),
  checked: z.number().describe('Elements the rules looked at.'),
  scope: z.string().describe('What was audited.'),
});

const ScreenWordJson = z.object({
  text: z.string(),
  bounds: BoundsJson.describe('Screen points.'),
  confidence: z.number().describe('0 to 1.'),
});

export const ScreenTextJson = z.object({
  source: z.string().describe('What was read: a display, a region, or an app window.'),
  area: BoundsJson.describe('The screen area read, in points.'),
  lines: z
    .array(ScreenWordJson.extend({ words: z.array(ScreenWordJson) }))
    .describe('Top to bottom, then left to right; click a word at the centre of its bounds.'),
  dropped: z.number().describe('Lines left out for a confidence under min_confidence.'),
});

export const TextMatchJson = z.object({
  text: z.string().describe('The matched words as read.'),
  line: z.string().describe('The whole line they are in.'),
  bounds: BoundsJson.describe('Screen points.'),
  centre: z.object({ x: z.number(), y: z.number() }).describe('Where click_text clicks.'),
  confidence: z.number(),
  occurrence: z.number().describe('1-based, in reading order.'),
  source: z.string(),
});

function elementFields(info: ElementInfo, ref: string, path: string): ElementJson {
  const secure = isSecure(info);
  return {
    ref,
    role: roleOf(info),
    // As the text and the paths show it: a toolkit's padding and line breaks are not part of the name.
    name: oneLine(info.name),
    ...(info.value === undefined || secure ? {} : { value: info.value }),
    ...(info.description ? { description: info.description } : {}),
    ...(info.shortcut ? { shortcut: info.shortcut } : {}),
    ...(info.level === undefined ? {} : { level: info.level }),
    states: secure && !info.states.includes('secure') ? [...info.states, 'secure'] : info.states,
    ...(info.bounds ? { bounds: info.bounds } : {}),
    path,
  };
}

export const elementJson = (node: Walked): ElementJson => elementFields(node.info, node.ref, node.path);

/** A walked element with the elements walked under it, chrome included (the CLI's `tree --format json`). */
export type TreeJson = ElementJson & {
  children: TreeJson[];
  unexpanded?: true;
  /** A long list walked where it is on screen: its children left off screen, and where those shown start. */
  off_screen?: { children: number; shown_from: number };
};

const treeNodeJson = (node: Walked): TreeJson => {
  const shown = node.info.shownChildren;
  return {
    ...elementJson(node),
    children: node.children.map(treeNodeJson),
    ...(node.unexpanded ? { unexpanded: true as const } : {}),
    ...(shown
      ? { off_screen: { children: node.info.childCount - shown.count, shown_from: shown.from } }
      : {}),
  };
};

export const snapshotJson = (r: SnapshotResult): { scope: string; tree: TreeJson } => ({
  scope: r.title,
  tree: treeNodeJson(r.tree),
});

function detailJson({ entry, detail: d, shownText }: ElementResult): z.infer<typeof ElementDetailJson> {
  const secure = isSecure(d);
  const attributes = Object.entries(d.attributes).filter(([key]) => !(secure && TEXTUAL.test(key)));
  return {
    ...elementFields(d, entry.ref, entry.path),
    native_role: d.nativeRole,
    ...(d.subrole ? { subrole: d.subrole } : {}),
    ...(d.identifier ? { identifier: d.identifier } : {}),
    ...(d.valueTruncated && !secure ? { value_truncated: true } : {}),
    ...(d.range ? { range: d.range } : {}),
    ...(shownText === undefined ? {} : { shown_text: shownText }),
    secure,
    actions: d.actions,
    attributes: Object.fromEntries(attributes),
    child_count: d.childCount,
  };
}

export const windowJson = (w: WindowInfo): z.infer<typeof WindowJson> => ({
  id: w.id,
  title: w.title,
  app: w.app,
  pid: w.pid,
  bounds: w.bounds,
  focused: w.focused,
  minimized: w.minimized,
});

const changeJson = (c: Change): z.infer<typeof ChangeJson> => ({
  change: c.kind,
  ref: c.node.ref,
  path: c.node.path,
  role: c.node.role,
  name: oneLine(c.node.info.name),
});

export function actionJson(r: ActionResult): z.infer<typeof ActionJson> {
  const outcome = r.outcome;
  const app = outcome && outcome.kind !== 'unwatched' ? outcome.app : r.app;
  return {
    done: plainText(r.done),
    ...(r.target
      ? { target: { ref: r.target.ref, label: r.target.label, path: r.target.path, app: r.target.app } }
      : {}),
    ...(app ? { app: { name: app.name, pid: app.pid } } : {}),
    watched: outcome !== undefined && outcome.kind !== 'unwatched' && outcome.kind !== 'unread',
    app_closed: outcome?.kind === 'app-closed',
    changes: outcome?.kind === 'changes' ? outcome.changes.map(changeJson) : [],
  };
}

export function windowActionJson(r: ActionResult): z.infer<typeof WindowActionJson> {
  if (!r.window) throw new Error('a window action answered without its window');
  return { ...actionJson(r), window: windowJson(r.window) };
}

export const matchesJson = (r: MatchesResult): z.infer<typeof MatchesJson> => ({
  scope: r.title,
  matches: r.found.slice(0, r.maxResults).map(elementJson),
  total: r.found.length,
  more: Math.max(0, r.found.length - r.maxResults),
  searched: r.searched,
  truncated: r.truncated,
});

export const menuJson = (r: MenuResult): z.infer<typeof MenuJson> => {
  // Each line's menu path: its ancestors' names (the lines above it at lower levels), then its own.
  const trail: string[] = [...r.names];
  return {
    app: r.app,
    menu: joinNames(r.names),
    items: r.lines.map((line) => {
      trail.length = r.names.length + line.level;
      trail.push(shownName(line.node));
      return {
        ...elementJson(line.node),
        level: line.level,
        submenu: line.hasSubmenu,
        menu_path: joinNames(trail),
      };
    }),
    cut: r.cut,
  };
};

export const elementResultJson = detailJson;

export const locatedJson = (r: LocatedResult): z.infer<typeof LocatedJson> =>
  r.node ? { found: true, element: elementJson(r.node) } : { found: false };

export const appsJson = (r: AppsResult): z.infer<typeof AppsJson> => ({
  apps: r.apps.map((a) => ({
    name: a.name,
    pid: a.pid,
    ...(a.bundleId ? { bundle_id: a.bundleId } : {}),
    active: a.active,
    ...(r.offLimits.includes(a.pid) ? { off_limits: true as const } : {}),
    ...(a.notAnswering ? { not_answering: a.notAnswering } : {}),
  })),
  ...(r.withoutTree.length > 0 ? { without_tree: r.withoutTree } : {}),
  ...hiddenJson(r.hidden),
});

export const windowsJson = (r: WindowsResult): z.infer<typeof WindowsJson> => ({
  windows: r.windows.map((w) => ({
    ...windowJson(w),
    ...(r.offLimits.includes(w.id) ? { off_limits: true as const } : {}),
  })),
  ...hiddenJson(r.hidden),
});

export const displaysJson = (r: DisplaysResult): z.infer<typeof DisplaysJson> => ({
  displays: r.displays.map((d) => ({
    id: d.id,
    ...(d.name && d.name !== d.id ? { name: d.name } : {}),
    primary: d.primary,
    bounds: d.bounds,
    scale: d.scale,
  })),
});

export const clipboardJson = (r: ClipboardResult): z.infer<typeof ClipboardJson> => ({
  ...(r.text === undefined ? {} : { text: r.text }),
  chars: r.chars,
  truncated: r.chars > r.maxChars,
  types: r.types,
});

export const clipboardHistoryJson = (r: ClipboardHistoryResult): z.infer<typeof ClipboardHistoryJson> => ({
  enabled: r.enabled,
  live: r.live,
  entries: r.entries.map((entry) => ({
    text: entry.text,
    chars: entry.chars,
    truncated: entry.chars > Array.from(entry.text).length,
    at: new Date(entry.at).toISOString(),
  })),
  total: r.total,
  offset: r.offset,
  ...(r.hiddenLeftOut ? { hidden_left_out: r.hiddenLeftOut } : {}),
});

export function visualJson(r: VisualResult): z.infer<typeof VisualJson> {
  const { answer } = r;
  const model = r.model === undefined ? {} : { model: r.model };
  switch (answer.kind) {
    case 'unasked':
      return { found: false, asked_model: false };
    case 'none':
      return { found: false, asked_model: true, ...model, reason: answer.reason };
    case 'element':
    case 'point': {
      const why = answer.reason === undefined ? {} : { reason: answer.reason };
      const found =
        answer.kind === 'element'
          ? { element: elementJson(answer.node) }
          : { point: { x: answer.x, y: answer.y } };
      return { found: true, asked_model: true, ...model, ...found, confidence: answer.confidence, ...why };
    }
  }
}

export const waitJson = (r: WaitResult): z.infer<typeof WaitJson> => ({
  awaited: r.awaited,
  elapsed_ms: Math.round(r.elapsedMs),
  ...(r.element ? { element: elementJson(r.element) } : {}),
});

export const assertJson = (r: AssertResult): z.infer<typeof AssertJson> => ({
  passed: r.failures.length === 0,
  failures: r.failures.map((f) => ({ property: f.property, expected: f.expected, actual: f.actual })),
  ...(r.element ? { element: elementJson(r.element) } : {}),
  elapsed_ms: Math.round(r.elapsedMs),
});

export const visualDiffJson = (r: VisualDiffResult): z.infer<typeof VisualDiffJson> => ({
  passed: r.passed,
  diff_percentage: diffPercentage(r),
  diff_pixels: r.diffPixels,
  total_pixels: r.totalPixels,
  size_mismatch: r.sizeMismatch,
  threshold_percentage: r.thresholdPercent,
  compared: r.compared,
  capture: { ...r.captureSize, scale: r.scale, bounds: r.bounds },
  ...(r.baselineSize ? { baseline_size: r.baselineSize } : {}),
  ...(r.saved ? { saved: r.saved } : {}),
});

export const auditJson = (r: AuditResult): z.infer<typeof AuditJson> => ({
  passed: r.issues.length === 0,
  score: r.score,
  level: r.level,
  issues: r.issues.map((i) => ({
    severity: i.severity,
    rule: i.rule,
    criterion: i.criterion,
    ref: i.node.ref,
    element: labelOf(i.node.role, i.node.info.name),
    path: i.node.path,
    description: i.problem,
    suggestion: i.fix,
  })),
  summary: auditSummary(r),
  checked: r.checked,
  scope: r.title,
});

export const RecordingJson = z.object({
  state: z.enum(['started', 'stopped']),
  app: z.string().optional().describe('The app recorded; absent: every app.'),
  events: z.number().int().optional().describe('Key presses and clicks heard.'),
  elapsed_ms: z.number().int().optional(),
  steps: z
    .array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) }))
    .optional()
    .describe("run_workflow's steps, as they are."),
  left_out: z
    .array(z.object({ why: z.string(), count: z.number().int() }))
    .optional()
    .describe('Presses that made no step.'),
});

export const recordingJson = (r: RecordingResult): z.infer<typeof RecordingJson> => ({
  state: r.state,
  ...(r.app === undefined ? {} : { app: r.app }),
  ...(r.events === undefined ? {} : { events: r.events }),
  ...(r.elapsedMs === undefined ? {} : { elapsed_ms: Math.round(r.elapsedMs) }),
  ...(r.steps ? { steps: r.steps.map((s) => ({ tool: s.tool, args: s.args })) } : {}),
  ...(r.leftOut ? { left_out: Object.entries(r.leftOut).map(([why, count]) => ({ why, count })) } : {}),
});

export const screenTextJson = (r: TextResult): z.infer<typeof ScreenTextJson> => ({
  source: r.what,
  area: r.area,
  lines: r.lines,
  dropped: r.dropped,
});

export const textMatchJson = (r: TextMatchResult): z.infer<typeof TextMatchJson> => ({
  ...r.match,
  source: r.what,
});

/** A result's JSON and the schema it matches: what a tool declares as its output. */
export interface StructuredOutput<R extends EngineResult> {
  schema: z.ZodObject;
  json(result: R): Record<string, unknown>;
}

const output = <R extends EngineResult>(schema: z.ZodObject, json: (result: R) => Record<string, unknown>) =>
  ({ schema, json }) satisfies StructuredOutput<R>;

/** The structured outputs tools declare, by what their engine call answers. */
export const structured = {
  action: output(ActionJson, actionJson),
  windowAction: output(WindowActionJson, windowActionJson),
  matches: output(MatchesJson, matchesJson),
  element: output(ElementDetailJson, elementResultJson),
  located: output(LocatedJson, locatedJson),
  menu: output(MenuJson, menuJson),
  apps: output(AppsJson, appsJson),
  windows: output(WindowsJson, windowsJson),
  displays: output(DisplaysJson, displaysJson),
  clipboard: output(ClipboardJson, clipboardJson),
  clipboardHistory: output(ClipboardHistoryJson, clipboardHistoryJson),
  wait: output(WaitJson, waitJson),
  assert: output(AssertJson, assertJson),
  visualDiff: output(VisualDiffJson, visualDiffJson),
  audit: output(AuditJson, auditJson),
  visual: output(VisualJson, visualJson),
  recording: output(RecordingJson, recordingJson),
  text: output(ScreenTextJson, screenTextJson),
  textMatch: output(TextMatchJson, textMatchJson),
};
