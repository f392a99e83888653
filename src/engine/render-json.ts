/**
 * Engine results as JSON: the structured results of MCP tools (their outputSchema is the schema here), workflow
 * steps' fields and the CLI's `--format json`. Secure values are left out, as in the text.
 */
import { z } from 'zod';
import type { ElementDetail, ElementInfo, WindowInfo } from '../helper/protocol.js';
import { ENTRY_CHARS, HISTORY_LIMIT } from './clipboard-history.js';
import type { RefEntry } from './refs.js';
import type {
  ActionResult,
  AppsResult,
  Change,
  ClipboardHistoryResult,
  ClipboardResult,
  ElementResult,
  EngineResult,
  LocatedResult,
  MatchesResult,
  TextMatchResult,
  TextResult,
  WaitResult,
  WindowsResult,
} from './results.js';
import { roleOf } from './roles.js';
import { isSecure, type Walked } from './tree.js';

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
  secure: z.boolean(),
  actions: z.array(z.string()),
  attributes: z.record(z.string(), z.string()),
  child_count: z.number(),
});

export const MatchesJson = z.object({
  scope: z.string().describe('What was searched.'),
  matches: z.array(ElementJson).describe('On-screen matches first, at most max_results.'),
  total: z.number().describe('Matches in all.'),
  searched: z.number().describe('Elements searched.'),
  truncated: z.boolean().describe('The walk stopped at its node cap.'),
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

export const AppsJson = z.object({
  apps: z.array(
    z.object({ name: z.string(), pid: z.number(), bundle_id: z.string().optional(), active: z.boolean() }),
  ),
});

export const WindowsJson = z.object({ windows: z.array(WindowJson) });

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
});

export const WaitJson = z.object({
  awaited: z.string().describe('What was awaited, in words.'),
  elapsed_ms: z.number(),
  element: ElementJson.optional().describe('The element the condition is about, when one was seen.'),
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
    name: info.name,
    ...(info.value === undefined || secure ? {} : { value: info.value }),
    ...(info.description ? { description: info.description } : {}),
    ...(info.shortcut ? { shortcut: info.shortcut } : {}),
    states: secure && !info.states.includes('secure') ? [...info.states, 'secure'] : info.states,
    ...(info.bounds ? { bounds: info.bounds } : {}),
    path,
  };
}

export const elementJson = (node: Walked): ElementJson => elementFields(node.info, node.ref, node.path);

/** Attributes that can carry a field's text; left out for secure fields. */
const TEXTUAL = /value|text|content/i;

function detailJson(entry: RefEntry, d: ElementDetail): z.infer<typeof ElementDetailJson> {
  const secure = isSecure(d);
  const attributes = Object.entries(d.attributes).filter(([key]) => !(secure && TEXTUAL.test(key)));
  return {
    ...elementFields(d, entry.ref, entry.path),
    native_role: d.nativeRole,
    ...(d.subrole ? { subrole: d.subrole } : {}),
    ...(d.identifier ? { identifier: d.identifier } : {}),
    ...(d.valueTruncated && !secure ? { value_truncated: true } : {}),
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
  role: c.node.role,
  name: c.node.info.name,
});

export function actionJson(r: ActionResult): z.infer<typeof ActionJson> {
  const outcome = r.outcome;
  const app = outcome && outcome.kind !== 'unwatched' ? outcome.app : r.app;
  return {
    done: r.done,
    ...(r.target
      ? { target: { ref: r.target.ref, label: r.target.label, path: r.target.path, app: r.target.app } }
      : {}),
    ...(app ? { app: { name: app.name, pid: app.pid } } : {}),
    watched: outcome !== undefined && outcome.kind !== 'unwatched',
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
  searched: r.searched,
  truncated: r.truncated,
});

export const elementResultJson = (r: ElementResult) => detailJson(r.entry, r.detail);

export const locatedJson = (r: LocatedResult): z.infer<typeof LocatedJson> =>
  r.node ? { found: true, element: elementJson(r.node) } : { found: false };

export const appsJson = (r: AppsResult): z.infer<typeof AppsJson> => ({
  apps: r.apps.map((a) => ({
    name: a.name,
    pid: a.pid,
    ...(a.bundleId ? { bundle_id: a.bundleId } : {}),
    active: a.active,
  })),
});

export const windowsJson = (r: WindowsResult): z.infer<typeof WindowsJson> => ({
  windows: r.windows.map(windowJson),
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
});

export const waitJson = (r: WaitResult): z.infer<typeof WaitJson> => ({
  awaited: r.awaited,
  elapsed_ms: Math.round(r.elapsedMs),
  ...(r.element ? { element: elementJson(r.element) } : {}),
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
  apps: output(AppsJson, appsJson),
  windows: output(WindowsJson, windowsJson),
  clipboard: output(ClipboardJson, clipboardJson),
  clipboardHistory: output(ClipboardHistoryJson, clipboardHistoryJson),
  wait: output(WaitJson, waitJson),
  text: output(ScreenTextJson, screenTextJson),
  textMatch: output(TextMatchJson, textMatchJson),
};
