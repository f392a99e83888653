/**
 * Engine results as the text a model (or a person at the CLI) reads. Text that came from apps is fenced as data
 * (src/untrusted.ts) here, once per answer; secure values never reach a line (line.ts, detail.ts).
 */
import { dataNote } from '../../untrusted.js';
import { geometry } from '../../bounds.js';
import { joinNames } from '../../menu-path.js';
import { renderDetail } from './detail.js';
import { renderChanges } from './changes.js';
import { elementLine, locatedLines, shortcutText, wordsText } from './line.js';
import { renderObserved } from './observed.js';
import { assertText, auditText, visualDiffText } from './testing.js';
import type {
  ActionResult,
  AppsResult,
  ClipboardHistoryResult,
  ClipboardResult,
  DisplaysResult,
  WaitResult,
  EngineResult,
  MatchesResult,
  MenuItemResult,
  MenuResult,
  Outcome,
  SnapshotResult,
  VisualResult,
  RecordingResult,
  TextMatchResult,
  TextResult,
  WindowsResult,
} from '../kernel/results.js';
import { readingLine, renderSnapshot } from './snapshot.js';
import { AGENT, type Vocabulary } from './vocabulary.js';
import { shownDescription, shownName, shownOf } from '../kernel/shown.js';
import { carriesAppText, windowStateWords, type Words } from '../kernel/words.js';
import { duration, plural } from '../../text.js';
import { labelOf, type Walked } from '../kernel/tree.js';

/** `v`: the reader's words (vocabulary.ts): an agent's (refs, tools, arguments) or a person's at the CLI. */
export function renderText(result: EngineResult, v: Vocabulary = AGENT): string {
  switch (result.kind) {
    case 'action':
      return actionText(result, v);
    case 'snapshot':
      return snapshotText(result, v);
    case 'matches':
      return matchesText(result, v);
    case 'element':
      return `${renderDetail(result, v)}\n${dataNote()}`;
    case 'located':
      return result.node ? `${locatedLines(result.node, v)}\n${dataNote()}` : wordsText(result.none ?? [], v);
    case 'apps':
      return appsText(result, v);
    case 'windows':
      return windowsText(result, v);
    case 'displays':
      return displaysText(result);
    case 'clipboard':
      return clipboardText(result, v);
    case 'clipboard-history':
      return clipboardHistoryText(result, v);
    case 'menu':
      return menuText(result, v);
    case 'menu-item':
      return menuItemText(result, v);
    case 'wait':
      return `Done after ${duration(result.elapsedMs)}${lateLook(result)}: ${result.awaited}.\n${fenced(result.seen, v)}`;
    case 'observed':
      return renderObserved(result, dataNote());
    case 'assert':
      return assertText(result, dataNote());
    case 'visual-diff':
      return visualDiffText(result);
    case 'audit':
      return auditText(result, dataNote());
    case 'visual':
      return visualText(result);
    case 'recording':
      return recordingText(result);
    case 'text':
      return screenTextText(result);
    case 'text-match':
      return textMatchText(result, v);
  }
}

/** Why a wait took longer than its time limit: the look that found it began in time and ended late. */
const lateLook = (r: WaitResult): string =>
  r.elapsedMs > r.timeoutMs
    ? ` (the look that saw it began within the ${duration(r.timeoutMs)} allowed; the app answered it slowly)`
    : '';

function displaysText({ displays }: DisplaysResult): string {
  const lines = displays.map(
    (d) =>
      `- ${d.id}${d.name && d.name !== d.id ? ` "${d.name}"` : ''}${d.primary ? ' (primary)' : ''}: ` +
      `${geometry(d.bounds)} points, scale ${d.scale} (pixels per point)`,
  );
  // A display's name is the monitor's own (EDID): text from outside, fenced as an app's is.
  const named = displays.some((d) => d.name && d.name !== d.id);
  return `${plural(displays.length, 'display')}, in screen points (origin at the top left of the primary display):\n${lines.join('\n')}${named ? `\n${dataNote()}` : ''}`;
}

function visualText(r: VisualResult): string {
  const { answer } = r;
  const wanted = JSON.stringify(r.description);
  const model = r.model === undefined ? '' : ` (${r.model})`;
  const by = `the client's model${model}`;
  const why = (reason?: string) => (reason === undefined ? '' : `; it says: ${JSON.stringify(reason)}`);
  switch (answer.kind) {
    case 'unasked':
      return (
        `This MCP client offers macpilot no model to ask (it did not declare sampling): look at the annotated ` +
        `screenshot for ${wanted} yourself and use a ref drawn on it, or click {x, y} with the mapping below.\n` +
        (r.screenshot ?? '')
      );
    case 'none':
      return `The client's model${model} did not find ${wanted} on the screen${why(answer.reason)} ${dataNote()}.`;
    case 'element':
      return (
        `Found ${wanted}: ${labelOf(answer.node.role, answer.node.info.name)} [ref=${answer.node.ref}], picked by ` +
        `${by} with confidence ${answer.confidence}${why(answer.reason)} ${dataNote()}.\npath: ${answer.node.path}`
      );
    case 'point':
      return (
        `No drawn element fits ${wanted}; ${by} points at (${answer.x}, ${answer.y}) in screen points with ` +
        `confidence ${answer.confidence}${why(answer.reason)} ${dataNote()}. click {x, y} acts there.`
      );
  }
}

/** The title, the UI patterns and state in one line when there is something to say, then the tree. */
function snapshotText(r: SnapshotResult, v: Vocabulary): string {
  const reading = readingLine(r.ui, v);
  const head = `${r.title} ${dataNote()}:`;
  const tree = renderSnapshot(r.tree, r.render, v);
  return reading ? `${head}\n${reading}\n${tree}` : `${head}\n${tree}`;
}

function outcomeText(outcome: Outcome, v: Vocabulary): string {
  switch (outcome.kind) {
    case 'changes':
      return renderChanges(outcome.changes, undefined, v);
    case 'app-closed':
      return `The app "${outcome.app.name}" closed: it no longer has an accessibility tree.`;
    case 'unwatched':
      return 'No app is active, so what changed is not known.';
    case 'unread':
      return `What changed is not known: "${outcome.app.name}" did not answer the reading of its window (${outcome.why}); read it again once it answers.`;
  }
}

/** What was done, what changed, and the fence when either carries the app's text. */
function actionText(r: ActionResult, v: Vocabulary): string {
  const lines = [wordsText(r.done, v)];
  if (r.outcome) lines.push(outcomeText(r.outcome, v));
  const appData = carriesAppText(r.done) || (r.outcome?.kind === 'changes' && r.outcome.changes.length > 0);
  return appData ? [...lines, dataNote()].join('\n') : lines.join('\n');
}

/** Words on their lines, followed by the fence when they carry the app's text. */
const fenced = (w: Words, v: Vocabulary): string =>
  carriesAppText(w) ? `${wordsText(w, v)}\n${dataNote()}` : wordsText(w, v);

function matchesText(r: MatchesResult, v: Vocabulary): string {
  const partial = r.truncated ? `; the walk stopped at its node cap, ${v.narrowSearch}` : '';
  const searched = `searched ${plural(r.searched, 'element')}${partial}`;
  const head = `${plural(r.found.length, 'match', 'matches')} in ${r.title} ${dataNote(searched)}`;
  if (r.found.length > 0) return `${head}:\n${renderMatches(r.found, r.maxResults, v, r.byDescription)}`;
  const hidden = r.includeHidden
    ? undefined
    : `Only elements on screen were searched; ${v.searchHidden} (items of closed menus, other tabs).`;
  const drawn = r.screenText
    ? `What an app draws without elements (a file manager's icon view, a canvas) is not searched: ${v.readDrawnText}.`
    : undefined;
  return [head, hidden, drawn].filter(Boolean).join('\n');
}

/** The matches as snapshot lines, with a last line counting those left out. */
export function renderMatches(
  found: readonly Walked[],
  maxResults: number,
  v: Vocabulary = AGENT,
  byDescription: readonly Walked[] = [],
): string {
  const lines = found
    .slice(0, maxResults)
    .map((node) => `- ${elementLine(node, v)}${matchedText(node, byDescription)}`);
  const rest = found.length - maxResults;
  if (rest > 0) lines.push(`[${plural(rest, 'more element')} matched; ${v.moreMatches}]`);
  return lines.join('\n');
}

/** The description a match was found by, where its line would not show it (a named element's). */
function matchedText(node: Walked, byDescription: readonly Walked[]): string {
  if (!byDescription.includes(node) || shownOf(node).description !== undefined) return '';
  return ` description=${JSON.stringify(shownDescription(node))}`;
}

/** "2 apps hidden by the person's app lists.", or nothing. */
const hiddenLine = (hidden: number, by: readonly string[], what: string, v: Vocabulary): string[] =>
  hidden > 0 ? [`${plural(hidden, what)} hidden by ${v.appLists}.${v.listHidden(by, hidden)}`] : [];

/** After an app or window that is listed though the app lists deny it (MACPILOT_LIST_DENIED_APPS). */
const offLimitsMark = (v: Vocabulary) => ` off limits (${v.appLists} deny it)`;

/** After an app that did not answer the accessibility bus in time. */
const notAnsweringMark = (why: 'stopped' | 'busy') =>
  why === 'stopped' ? ' not answering (its process is stopped)' : ' not answering (busy or hung)';

function appsText(r: AppsResult, v: Vocabulary): string {
  const hidden = hiddenLine(r.hidden, r.hiddenBy, 'app', v);
  const treeless = treelessLines(r, v);
  if (r.apps.length === 0) {
    const none = r.hidden > 0 ? 'No running app is shown.' : 'No running app exposes an accessibility tree.';
    return [treeless.length > 0 ? `${none} ${dataNote()}` : none, ...treeless, ...hidden].join('\n');
  }
  const lines = r.apps.map(
    (a) =>
      `- ${a.name} (pid ${a.pid})${a.bundleId ? ` ${a.bundleId}` : ''}${a.active ? ' active' : ''}${a.notAnswering ? notAnsweringMark(a.notAnswering) : ''}${r.offLimits.includes(a.pid) ? offLimitsMark(v) : ''}`,
  );
  const head = `${plural(r.apps.length, 'running app')} with an accessibility tree ${dataNote()}:`;
  return [head, ...lines, ...treeless, ...hidden].join('\n');
}

/** The apps with windows but no tree, with how one gets its tree. */
function treelessLines({ withoutTree }: AppsResult, v: Vocabulary): string[] {
  if (withoutTree.length === 0) return [];
  const head =
    `${plural(withoutTree.length, 'app')} with windows but no accessibility tree (a browser or Electron app ` +
    `started before accessibility was on, or an app without accessibility; ${v.relaunch}):`;
  const lines = withoutTree.map(
    (a) =>
      `- ${a.name} (pid ${a.pid}): ${a.windows.map((w) => `window ${w.id} ${JSON.stringify(w.title)}`).join(', ')}`,
  );
  return [head, ...lines];
}

function windowsText(r: WindowsResult, v: Vocabulary): string {
  // An app named by its pid is named by its name too.
  const named = r.app !== undefined && /^\d+$/.test(r.app) ? r.windows[0]?.app : undefined;
  const which =
    r.app === undefined
      ? ''
      : named
        ? ` of ${JSON.stringify(named)} (pid ${r.app})`
        : ` of ${JSON.stringify(r.app)}`;
  const hidden = r.includeMinimized ? [] : [`minimized ones left out: ${v.listMinimized}`];
  const head = `${plural(r.windows.length, 'window')}${which}, front to back ${dataNote(...hidden)}`;
  const lines = r.windows.map(
    (w) => `- ${wordsText(windowStateWords(w), v)}${r.offLimits.includes(w.id) ? offLimitsMark(v) : ''}`,
  );
  const hiddenWindows = hiddenLine(r.hidden, r.hiddenBy, 'window', v);
  if (r.windows.length > 0) return [`${head}:`, ...lines, ...hiddenWindows].join('\n');
  const none =
    r.app === undefined ? head : `${head}. Apps with windows: ${r.appsWithWindows.join(', ') || 'none'}.`;
  return [none, ...hiddenWindows].join('\n');
}

function clipboardText(r: ClipboardResult, v: Vocabulary): string {
  if (r.text === undefined) {
    return r.types.length === 0
      ? 'The clipboard is empty.'
      : `The clipboard holds no text; it offers: ${r.types.join(', ')}.`;
  }
  const size =
    r.chars > r.maxChars
      ? `the first ${r.maxChars} of ${r.chars} characters (${v.readMoreClipboard(r.maxChars)})`
      : plural(r.chars, 'character');
  return `Clipboard text, ${size} ${dataNote(`types offered: ${r.types.join(', ') || 'none'}`)}:\n${r.text}`;
}

function clipboardHistoryText(r: ClipboardHistoryResult, v: Vocabulary): string {
  if (!r.enabled) {
    return `Clipboard history is off (${r.offBy === undefined ? 'MACPILOT_CLIPBOARD_HISTORY=off' : `set by ${r.offBy}`}): macpilot keeps no record of what the clipboard held.`;
  }
  const unwatched = r.live
    ? []
    : ['this helper cannot tell when the clipboard changes, so only what set_clipboard wrote is kept'];
  const hidden = r.hiddenLeftOut
    ? [
        `${plural(r.hiddenLeftOut, 'text')} copied in apps ${v.appLists} hide ${r.hiddenLeftOut === 1 ? 'is' : 'are'} left out`,
      ]
    : [];
  if (r.entries.length === 0) {
    const none =
      r.total === 0
        ? `The clipboard history is empty: no text ${hidden.length > 0 ? 'it may show ' : ''}was copied since macpilot started watching or the clipboard was last cleared`
        : `The clipboard history holds ${plural(r.total, 'text')}, none from offset ${r.offset} on`;
    return `${[none, ...hidden, ...unwatched].join('; ')}.`;
  }
  const shown =
    r.entries.length < r.total
      ? `${r.offset + 1}-${r.offset + r.entries.length} of ${plural(r.total, 'text')}`
      : plural(r.total, 'text');
  const lines = r.entries.map((entry, i) => {
    const cut =
      entry.chars > Array.from(entry.text).length ? `the first ${Array.from(entry.text).length} of ` : '';
    const time = new Date(entry.at).toISOString().slice(11, 19);
    return `${r.offset + i + 1}. ${time} UTC, ${cut}${plural(entry.chars, 'character')}: ${JSON.stringify(entry.text)}`;
  });
  return `Clipboard history, ${shown}, newest first ${dataNote(...hidden, ...unwatched)}:\n${lines.join('\n')}`;
}

/**
 * `- menuitemcheckbox "Wrap" [ref=e41] disabled not checked shortcut=Ctrl+W ▸`: role, name, ref, what a menu
 * shows of an item. A check or radio item always says whether it is checked.
 */
function menuEntryLine(node: Walked, indent: number, hasSubmenu: boolean, v: Vocabulary): string {
  const flags = [
    node.info.states.includes('disabled') ? 'disabled' : '',
    checkedText(node),
    shortcutText(node.info.shortcut),
    hasSubmenu ? '▸' : '',
  ].filter(Boolean);
  const head = `${'  '.repeat(indent)}- ${node.role} ${JSON.stringify(shownName(node))} ${v.tag(node)}`;
  return [head, ...flags].join(' ');
}

function menuText(r: MenuResult, v: Vocabulary): string {
  const where = r.names.length === 0 ? 'The menu bar' : `The menu ${JSON.stringify(joinNames(r.names))}`;
  const head = `${where} of "${r.app}" ${dataNote('▸ has a submenu')}:`;
  const lines = r.lines.map((l) => menuEntryLine(l.node, l.level, l.hasSubmenu, v));
  const tail = r.cut ? `\n(cut at ${r.maxLines} lines: list a submenu by its path)` : '';
  return lines.length === 0 ? `${head}\n(no items)` : `${head}\n${lines.join('\n')}${tail}`;
}

/** "checked", "mixed", "not checked" for a check or radio item, else what the item's states say. */
function checkedText(node: Walked): string {
  const { states } = node.info;
  const checkable = node.role === 'menuitemcheckbox' || node.role === 'menuitemradio';
  const checked = states.includes('checked') ? 'checked' : states.includes('mixed') ? 'mixed' : '';
  return checked || (checkable ? 'not checked' : '');
}

function menuItemText(r: MenuItemResult, v: Vocabulary): string {
  const { node } = r;
  const { states, description, shortcut } = node.info;
  const facts = [
    states.includes('disabled') ? 'disabled' : 'enabled',
    checkedText(node),
    r.hasSubmenu ? 'has a submenu' : 'no submenu',
  ].filter(Boolean);
  return [
    `${node.role} ${JSON.stringify(shownName(node))} ${v.tag(node)}`,
    `menu path: ${joinNames(r.names)}`,
    `state: ${facts.join(', ')}`,
    ...(shortcut ? [`shortcut: ${shortcut} (${v.pressKey} takes it as written)`] : []),
    ...(description ? [`description: ${JSON.stringify(description)}`] : []),
    `element path: ${node.path}`,
    dataNote(),
  ].join('\n');
}

function recordingText(r: RecordingResult): string {
  const which = r.app === undefined ? 'every app' : JSON.stringify(r.app);
  if (r.state === 'started') {
    return (
      `Recording ${which}: the key presses and clicks made from now on become workflow steps; ` +
      'stop_recording ends the recording and answers them. What is typed is kept in memory only, never logged.'
    );
  }
  const steps = r.steps ?? [];
  const lines = steps.map((step, i) => `${i}. ${step.tool} ${JSON.stringify(step.args)}`);
  const leftOut = Object.entries(r.leftOut ?? {}).map(
    ([why, count]) => `- ${plural(count, 'press', 'presses')} ${why}`,
  );
  const head =
    `Recorded ${plural(r.events ?? 0, 'press', 'presses')} in ${which} over ${duration(r.elapsedMs ?? 0)}: ` +
    `${plural(steps.length, 'step')} for run_workflow (pass "steps" as they are)`;
  return [
    steps.length === 0 ? `${head}.` : `${head} ${dataNote()}:`,
    ...lines,
    ...(leftOut.length > 0 ? ['Left out:', ...leftOut] : []),
  ].join('\n');
}

const OCR_NOTE = 'read by OCR, which may misread';

function screenTextText(r: TextResult): string {
  const left =
    r.dropped > 0
      ? [`${plural(r.dropped, 'line')} read with confidence under ${r.minConfidence} left out`]
      : [];
  const head =
    `${plural(r.lines.length, 'line')} of text on ${r.what}, screen area ${geometry(r.area)}; boxes in screen ` +
    `points, confidence 0-1 ${dataNote(OCR_NOTE, ...left)}`;
  if (r.lines.length === 0) return head;
  const lines = r.lines.map(
    (l) => `- ${JSON.stringify(l.text)} ${geometry(l.bounds)} ${l.confidence.toFixed(2)}`,
  );
  return `${head}:\n${lines.join('\n')}`;
}

function textMatchText(r: TextMatchResult, v: Vocabulary): string {
  const { match } = r;
  return (
    `${JSON.stringify(match.text)} on ${r.what}: ${geometry(match.bounds)}, centre ${match.centre.x},${match.centre.y} ` +
    `(${v.clickText}), confidence ${match.confidence.toFixed(2)}, in the line ${JSON.stringify(match.line)} ` +
    dataNote(OCR_NOTE)
  );
}
