/**
 * What engine calls answer, as data. Front ends render these: the model's text (render-text.ts), structured
 * results and JSON (render-json.ts), the CLI. A result never holds finished prose about app data; the
 * renderers decide how it reads and where the untrusted-data fence goes.
 */
import type {
  AppInfo,
  Bounds,
  DisplayInfo,
  ElementDetail,
  ImageFormat,
  WindowInfo,
} from '../../helper-client/protocol.js';
import type { ScreenLine, ScreenWord } from './screen-lines.js';
import type { AppRef, RefEntry } from './refs.js';
import type { Role } from './roles.js';
import type { Words } from './words.js';
import type { Walked } from './tree.js';

/** One line of a post-action diff: a top-level window that opened or closed, or an element added, changed, removed. */
export interface Change {
  kind: 'opened' | 'closed' | 'added' | 'changed' | 'removed';
  node: Walked;
  /** changed: the element as it was. */
  was?: Walked;
}

/** What an action did to the UI of the app it reached. */
export type Outcome =
  | { kind: 'changes'; app: AppRef; changes: Change[] }
  /** The app went away: it has no accessibility tree any more. */
  | { kind: 'app-closed'; app: AppRef }
  /** No app was active to watch. */
  | { kind: 'unwatched' }
  /** The app did not answer the walks that tell what changed (it is busy); the action was done all the same. */
  | { kind: 'unread'; app: AppRef; why: string };

export interface ActionResult {
  kind: 'action';
  /** One sentence: what was done ("Clicked button "7" [ref=e12] (its "click" action)."), the app's text marked. */
  done: Words;
  /** The element acted on. */
  target?: RefEntry;
  /** Where the element acted on was on screen as the action began, in screen points. */
  targetBounds?: Bounds;
  /** The window acted on, as it is afterwards. */
  window?: WindowInfo;
  /** The app acted on (launch, activate, quit). */
  app?: AppRef;
  /** What changed; absent for actions that watch nothing (windows, apps, the clipboard). */
  outcome?: Outcome;
  /** Nothing was sent: a release of what the session did not hold. */
  nothingSent?: true;
}

/** How a snapshot's tree is shown: what was asked of the walk and how much of it fits in an answer. */
export interface RenderOptions {
  /** The depth the walk was asked for. */
  depth: number;
  maxNodes: number;
  maxChars: number;
  roles?: ReadonlySet<Role>;
  /** The helper's node cap stopped the walk before depth did. */
  walkTruncated: boolean;
  /** The most elements the walk read. */
  walkMaxNodes?: number;
  /**
   * Print at most this many levels of lines (the CLI's --depth: levels a person sees, where `depth` counts the
   * unnamed wrappers the tree leaves out too).
   */
  maxLevel?: number;
  /** Elements not on screen were walked too (include_hidden; the CLI's --all). */
  includeHidden?: boolean;
}

export interface SnapshotResult {
  kind: 'snapshot';
  /** What was walked: `"mousepad" (pid 42)`, `window "Untitled" of ...`, `menu "File" [ref=e5] in "mousepad"`. */
  title: string;
  tree: Walked;
  render: RenderOptions;
  /** The UI patterns and state the walked tree shows (patterns.ts). */
  ui: UiReading;
}

export interface MatchesResult {
  kind: 'matches';
  title: string;
  found: Walked[];
  /** Matches whose description alone held the text searched for: their lines show it. */
  byDescription: readonly Walked[];
  maxResults: number;
  /** Elements walked. */
  searched: number;
  /** The walk stopped at its node cap. */
  truncated: boolean;
  includeHidden: boolean;
  /** The text drawn on screen can be read (find_text offered): a search that finds nothing points to it. */
  screenText?: boolean;
}

export interface ElementResult {
  kind: 'element';
  entry: RefEntry;
  detail: ElementDetail;
  /** The text its labels show, for an element without a name or value of its own (see Resolver.shownText). */
  shownText?: string;
}

/** An element met by focus or a hit test, or none. */
export interface LocatedResult {
  kind: 'located';
  node?: Walked;
  /** Why there is none: "No element has keyboard focus in mousepad." */
  none?: Words;
}

/** A process with windows but no accessibility tree, named as its windows are. */
export interface TreelessApp {
  name: string;
  pid: number;
  windows: { id: string; title: string }[];
}

export interface AppsResult {
  kind: 'apps';
  apps: AppInfo[];
  /** Apps with windows but no accessibility tree (started before accessibility was on, or without any). */
  withoutTree: TreelessApp[];
  /** Running apps the person's app lists hide from agents. */
  hidden: number;
  /** The settings that hide them, in the person's words, each once. */
  hiddenBy: string[];
  /** Pids of the apps listed that may not be read (MACPILOT_LIST_DENIED_APPS lists them). */
  offLimits: number[];
}

export interface ScreenshotFacts {
  /** Image size in pixels. */
  width: number;
  height: number;
  format: ImageFormat;
  /** What was captured, in words: 'display "screen"', "the window ... of ...". */
  of: string;
  /** The screen area the image shows, in points, and image pixels per point. */
  area: Bounds;
  scale: number;
  /** The file written, and its size in bytes; absent when the image came back in the answer. */
  file?: string;
  bytes?: number;
  /** Windows of apps the person's app lists hide that are in the image, and whether they were painted black. */
  hiddenWindows: number;
  paintedBlack: boolean;
  /** Windows of other apps in front of the window captured, whose pixels show in the image (Linux). */
  coveredBy: number;
  /** Refs drawn on the image (annotate). */
  annotated: number;
}

export interface DisplaysResult {
  kind: 'displays';
  displays: DisplayInfo[];
}

export interface WindowsResult {
  kind: 'windows';
  windows: WindowInfo[];
  /** The app filter given, if any. */
  app?: string;
  includeMinimized: boolean;
  /** Apps that have windows, when the filter matched none. */
  appsWithWindows: string[];
  /** Windows of apps the person's app lists hide from agents. */
  hidden: number;
  /** The settings that hide them, in the person's words, each once. */
  hiddenBy: string[];
  /** Ids of the windows listed whose apps may not be read (MACPILOT_LIST_DENIED_APPS lists them). */
  offLimits: string[];
}

export interface ClipboardResult {
  kind: 'clipboard';
  /** Absent: the clipboard holds no text. */
  text?: string;
  /** Characters (code points) in all; text holds at most maxChars of them. */
  chars: number;
  maxChars: number;
  types: string[];
}

/** A text the clipboard held, as the history keeps it. */
export interface ClipboardEntry {
  /** The first ENTRY_CHARS characters (clipboard-history.ts). */
  text: string;
  /** Characters (code points) the text had in all. */
  chars: number;
  /** Date.now() when it was seen. */
  at: number;
}

export interface ClipboardHistoryResult {
  kind: 'clipboard-history';
  /** False: the clipboard history setting is off and nothing is kept. */
  enabled: boolean;
  /** Where that setting was given ("the environment variable MACPILOT_CLIPBOARD_HISTORY", a config file's key). */
  offBy?: string;
  /** False: the helper cannot tell when the clipboard changes; only what set_clipboard wrote is kept. */
  live: boolean;
  /** Newest first, from the offset-th on. */
  entries: ClipboardEntry[];
  /** Entries kept in all. */
  total: number;
  offset: number;
  /** Texts copied in apps the person's lists hide, left out since the history was last cleared. */
  hiddenLeftOut?: number;
}

/** One entry of a menu listing, `level` submenus deep. */
export interface MenuLine {
  node: Walked;
  level: number;
  hasSubmenu: boolean;
}

export interface MenuResult {
  kind: 'menu';
  app: string;
  /** The menu path listed; empty: the menu bar. */
  names: string[];
  lines: MenuLine[];
  maxLines: number;
  cut: boolean;
}

export interface MenuItemResult {
  kind: 'menu-item';
  node: Walked;
  names: string[];
  hasSubmenu: boolean;
}

/** A wait that ended with its condition met (a timeout is an error). */
export interface WaitResult {
  kind: 'wait';
  /** What was awaited, in words: `button "OK" [ref=e3] to be enabled`. */
  awaited: string;
  elapsedMs: number;
  /** The wait's time limit: a look begun within it may end after it. */
  timeoutMs: number;
  /** What was seen when the condition held. */
  seen: Words;
  /** The element the condition is about, when one was seen. */
  element?: Walked;
}

/** One step of a run_workflow, as the summary shows it. */
export interface WorkflowStep {
  step: number;
  tool: string;
  status: 'ok' | 'failed' | 'skipped' | 'planned';
  attempts: number;
  /** The step's own answer (already fenced where it carries app text). */
  text?: string;
}

/** A run_workflow that ended: what each step did, and the steps rolled back. */
export interface WorkflowRun {
  name?: string;
  success: boolean;
  stepsCompleted: number;
  stepsTotal: number;
  error?: string;
  steps: WorkflowStep[];
  rolledBack: number[];
  /** The steps were checked, not run. */
  dryRun?: boolean;
}

/** What undo (or a rollback) put back, and what it could not. */
export interface UndoRun {
  /** Actions the call asked to undo. */
  asked: number;
  /** Actions taken back from the history: fewer than asked when it held no more. */
  taken: number;
  /** `seq`: the action's place in the session, for listing them newest first. */
  undone: { seq: number; tool: string; what: string }[];
  notUndone: { seq: number; tool: string; why: string }[];
}

/** What kind of change an app reported: its events' kinds, grouped. */
export type ChangeCategory =
  'window' | 'focus' | 'value' | 'text' | 'children' | 'name' | 'state' | 'selection' | 'layout' | 'other';

export interface ObservedChange {
  /** Milliseconds after the observation started. */
  afterMs: number;
  category: ChangeCategory;
  kinds: string[];
  /** The element the events were about, when the helper named it: its line label, ref and value now. */
  element?: { label: string; ref?: string; value?: string };
  /** Events folded into this line. */
  count: number;
}

/** An app's changes over a while (observe_changes). */
export interface ObservedResult {
  kind: 'observed';
  app: AppRef;
  /** How long it listened. */
  elapsedMs: number;
  durationMs: number;
  changes: ObservedChange[];
  /** A filter was given and a change matched it. */
  matched: boolean;
  /** False when the helper sends no change events here: nothing could be seen. */
  live: boolean;
}

export type AssertValue = string | number | boolean;

/** One assertion that did not hold: the property, what was expected, what the element had (null: nothing). */
export interface AssertFailure {
  property:
    | 'exists'
    | 'enabled'
    | 'focused'
    | 'checked'
    | 'selected'
    | 'value'
    | 'name'
    | 'role'
    | 'visible'
    | 'contains_text'
    | 'count';
  expected: AssertValue;
  actual: AssertValue | null;
}

/** assert_element: whether an element is as expected (a failed assertion is an answer, not an error). */
export interface AssertResult {
  kind: 'assert';
  /** What was asserted on, in words: a ref, a path, or the query. */
  subject: string;
  /** The element checked, when there was one. */
  element?: Walked;
  /** Why there was none. */
  missing?: string;
  /** Assertions given. */
  checked: number;
  failures: AssertFailure[];
  elapsedMs: number;
  timeoutMs: number;
}

/** visual_diff: a capture compared with a baseline. */
export interface VisualDiffResult {
  kind: 'visual-diff';
  /** What was captured, in words. */
  what: string;
  /** The capture's screen area (points) and pixels per point. */
  bounds: Bounds;
  scale: number;
  captureSize: { width: number; height: number };
  /** False: no baseline was given, the capture was only saved. */
  compared: boolean;
  /** The baseline, in words (a path, baseline://NAME, or "the base64 PNG given"). */
  baseline?: string;
  baselineSize?: { width: number; height: number };
  passed: boolean;
  diffPixels: number;
  totalPixels: number;
  thresholdPercent: number;
  /** The baseline's shape differs from the capture's: they cannot be compared. */
  sizeMismatch: boolean;
  /** Ignored regions that fell on the capture. */
  ignored: number;
  /** baseline://NAME, when this capture was saved under it. */
  saved?: string;
  elapsedMs: number;
  /** The diff image, scaled like a screenshot. */
  image?: { data: string; mimeType: string; width: number; height: number };
}

/** audit_accessibility: the issues found in a scope, its score and what was checked. */
export interface AuditResult {
  kind: 'audit';
  /** What was audited: `window "Calculator" of "gnome-calculator" (pid 42)`. */
  title: string;
  level: Level;
  issues: AuditIssue[];
  score: number;
  /** Elements the rules looked at. */
  checked: number;
  /** Texts whose contrast was measured on screen pixels; undefined: no capture (not asked for, or level A). */
  contrastMeasured?: number;
  /** The keyboard tour: Tab presses made, and whether focus went round the whole window; or why none was made. */
  keyboard: { presses: number; complete: boolean } | { skipped: string };
  elapsedMs: number;
}

/** What find_visual's model chose (visual.ts). */
export type VisualAnswer =
  | { kind: 'element'; node: Walked; confidence: number; reason?: string }
  /** A point in screen points, for click {x, y}. */
  | { kind: 'point'; x: number; y: number; confidence: number; reason?: string }
  | { kind: 'none'; reason: string }
  /** No model could be asked: the agent looks at the image itself. */
  | { kind: 'unasked' };

export interface VisualResult {
  kind: 'visual';
  description: string;
  /** The app whose refs were drawn. */
  app?: AppRef;
  answer: VisualAnswer;
  /** The model that answered. */
  model?: string;
  /** unasked: the annotated screenshot and its text (what it shows, the refs drawn). */
  image?: { data: string; mimeType: string };
  screenshot?: string;
}

/** A recording started, or stopped with the steps it made. */
export interface RecordingResult {
  kind: 'recording';
  state: 'started' | 'stopped';
  /** The app recorded; absent: every app. */
  app?: string;
  /** stopped: presses heard (button releases not counted). */
  events?: number;
  elapsedMs?: number;
  /** stopped: run_workflow's steps, in order. */
  steps?: RecordedStep[];
  /** stopped: presses that made no step, counted by why. */
  leftOut?: Record<string, number>;
}

/** The text on an area of the screen (read_text), top to bottom. */
export interface TextResult {
  kind: 'text';
  /** What was read, in words: `display "0"`, `window 0x1a00004 "Mousepad" of mousepad (pid 42)`. */
  what: string;
  /** The area read, in screen points. */
  area: Bounds;
  lines: ScreenLine[];
  minConfidence: number;
  /** Lines left out for a confidence under minConfidence. */
  dropped: number;
}

/** Text found on screen (find_text): where it is and the point that clicks it. */
export interface TextMatchResult {
  kind: 'text-match';
  /** The text asked for. */
  query: string;
  what: string;
  match: TextMatch;
}

/** Words on screen that match a text: their box, the line they are in, and its place among the matches. */
export interface TextMatch {
  /** The matched words as read. */
  text: string;
  /** The whole line they are in. */
  line: string;
  bounds: Bounds;
  /** The centre of the box: where click_text clicks. */
  centre: { x: number; y: number };
  confidence: number;
  /** 1-based, in reading order (top to bottom, left to right). */
  occurrence: number;
}

export type EngineResult =
  | ActionResult
  | SnapshotResult
  | MatchesResult
  | ElementResult
  | LocatedResult
  | AppsResult
  | WindowsResult
  | DisplaysResult
  | ClipboardResult
  | ClipboardHistoryResult
  | MenuResult
  | MenuItemResult
  | WaitResult
  | ObservedResult
  | AssertResult
  | VisualDiffResult
  | AuditResult
  | VisualResult
  | RecordingResult
  | TextResult
  | TextMatchResult;

// --- What the results above are made of, and their limits: read where results are rendered. ---

export type Severity = 'critical' | 'serious' | 'moderate' | 'minor';
export const SEVERITIES: readonly Severity[] = ['critical', 'serious', 'moderate', 'minor'];
export type Level = 'A' | 'AA' | 'AAA';
export const LEVELS: readonly Level[] = ['A', 'AA', 'AAA'];

export const RULE_IDS = [
  'control-name',
  'image-alt',
  'field-label',
  'duplicate-name',
  'focusable-offscreen',
  'target-size',
  'text-contrast',
  'keyboard-unreachable',
  'keyboard-trap',
] as const;
export type RuleId = (typeof RULE_IDS)[number];

export interface AuditIssue {
  rule: RuleId;
  severity: Severity;
  /** The WCAG success criterion, e.g. "4.1.2 Name, Role, Value (A)". */
  criterion: string;
  /** The element at fault (for a focus trap, the first element of the trap). */
  node: Walked;
  /** What is wrong, in words. */
  problem: string;
  /** How to fix it. */
  fix: string;
}

export const UI_PATTERNS = [
  'login_form',
  'file_save_dialog',
  'file_open_dialog',
  'confirmation_dialog',
  'error_alert',
  'settings_page',
  'search_interface',
  'table_view',
  'form',
  'text_editor',
  'browser_main',
  'progress_indicator',
] as const;
export type UiPattern = (typeof UI_PATTERNS)[number];

/** One word for the app: most pressing first when several hold (see `stateOf`). */
export const UI_STATES = ['idle', 'loading', 'error', 'auth_required', 'busy', 'modal_dialog'] as const;
export type UiState = (typeof UI_STATES)[number];

/**
 * A next step a pattern suggests: a tool and the element it would take, or, for a pattern read off the screen,
 * the words it would take and the point at their centre (click there: a text shown twice, as a question's verb
 * and its button, would make click_text ask which).
 */
export type Suggestion = {
  /** A short word for the element's part in the pattern: "confirm", "cancel", "name", "editor". */
  part: string;
  /** What the step does, in words. */
  action: string;
  tool: string;
} & (
  | { node: Walked; words?: undefined; point?: undefined }
  | { words: ScreenWord; point: { x: number; y: number }; node?: undefined }
);

export interface DetectedPattern {
  pattern: UiPattern;
  /** The window, dialog or element the pattern was seen in. */
  at: Walked;
  steps: Suggestion[];
}

export interface UiReading {
  patterns: DetectedPattern[];
  state: UiState;
  /** Why the state is what it is, in words ("a modal dialog is open: dialog "Save As" [ref=e39]"). */
  because: string;
}

/** A run_workflow step. */
export interface RecordedStep {
  tool: string;
  args: Record<string, unknown>;
}

/** active: frontmost; background: has a window on screen; minimized: only minimized windows; windowless. */
export type AppActivity = 'active' | 'background' | 'minimized' | 'windowless';

export interface AppOverview {
  app: AppInfo;
  state: AppActivity;
  windows: WindowInfo[];
}

export interface DesktopResult {
  kind: 'desktop';
  apps: AppOverview[];
  /** Running apps the person's app lists hide from agents. */
  hidden: number;
  /** The settings that hide them, in the person's words, each once. */
  hiddenBy: string[];
  /** The pids of the apps listed that may not be read (a list that shows denied apps). */
  offLimits: number[];
}

export interface AppStateResult {
  kind: 'app-state';
  app: AppInfo;
  state: AppActivity;
  windows: WindowInfo[];
  /** The top-level dialog or alert the app shows, if any (by title). */
  dialog?: { role: string; title: string };
  focused?: Walked;
  /** The menu bar's menus, when the app has a menu bar. */
  menuBar?: string[];
  /** The UI patterns its windows show and the state they put it in. */
  ui: UiReading;
}

/** The most characters one read of the clipboard shows. */
export const CLIPBOARD_READ_LIMIT = 1_000_000;
/** Entries kept; the oldest is dropped past it. */
export const HISTORY_LIMIT = 50;
/** Characters kept of each text (get_clipboard reads the current one whole). */
export const ENTRY_CHARS = 2_000;
