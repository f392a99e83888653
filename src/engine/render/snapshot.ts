/**
 * A walked tree as compact indented text, one element a line, two spaces a level:
 *
 *   - window "Untitled 1 - Mousepad" [ref=e2] active
 *     - menubar [ref=e3]
 *       - menu "File" [ref=e4] collapsed
 *
 * Chrome collapses: an unnamed generic, group or scrollarea with no state worth showing gets no line, and its
 * children take its place. A label that says its parent's name folds into the parent's line (`button "7"` has a
 * `text "7"` child); it keeps its ref and path. A `roles` filter works the same way: elements of other roles get no line and their
 * descendants are hoisted, so matches keep their nesting among themselves (menus with their items) without
 * the containers between them. The walk's root always gets a line. Output stops at maxNodes lines or maxChars
 * characters, and a closing line says what was cut and how to see it.
 */
import { elementLine, lineExtras } from './line.js';
import type { RenderOptions, UiReading } from '../kernel/results.js';
import { isChrome } from '../kernel/shown.js';
import { normalizeName, plural } from '../../text.js';
import { SNAPSHOT_DEFAULTS, type Walked } from '../kernel/tree.js';
import { AGENT, type Vocabulary } from './vocabulary.js';

const LISTED_REFS = 8;

interface Cuts {
  beyondCap: number;
  /** Which cap stopped the lines: their count (max_nodes) or their characters. */
  cappedBy?: 'lines' | 'size';
  belowDepth: number;
  /** Some of those below the depth were not walked, and only their parents' child counts are known. */
  belowDepthAtLeast: boolean;
  notWalked: number;
  unexpanded: Walked[];
  /** Long containers whose children were walked where they are on screen only. */
  offScreen: Walked[];
}

/** A leaf label whose line would repeat the line above it: same text as the name there, nothing of its own. */
export function isFoldedLabel(node: Walked, lineAbove: Walked): boolean {
  const text = normalizeName(node.info.name);
  if (node.role !== 'text' || text === '' || text !== normalizeName(lineAbove.info.name)) return false;
  const above = lineExtras(lineAbove);
  return node.children.length === 0 && !node.unexpanded && lineExtras(node).every((e) => above.includes(e));
}

export function renderSnapshot(root: Walked, options: RenderOptions, v: Vocabulary = AGENT): string {
  const lines: string[] = [];
  const cuts: Cuts = {
    beyondCap: 0,
    belowDepth: 0,
    belowDepthAtLeast: false,
    notWalked: 0,
    unexpanded: [],
    offScreen: [],
  };
  let chars = 0;
  let full = false;

  /** `lineAbove`: the nearest ancestor that got a line. */
  const visit = (node: Walked, level: number, lineAbove?: Walked): void => {
    const shown = getsLine(node, lineAbove, options);
    if (shown && options.maxLevel !== undefined && level >= options.maxLevel) {
      cuts.belowDepth += printable(node, lineAbove, options);
      cuts.belowDepthAtLeast ||= hasUnwalked(node);
      if (lineAbove && !full && !cuts.unexpanded.includes(lineAbove)) cuts.unexpanded.push(lineAbove);
      return;
    }
    if (node.info.shownChildren && !full) cuts.offScreen.push(node);
    // A walk of everything that stopped at its node cap read only some children of this one: the rest count.
    else if (
      options.walkTruncated &&
      options.includeHidden &&
      !node.unexpanded &&
      node.children.length < node.info.childCount
    )
      cuts.notWalked += node.info.childCount - node.children.length;
    if (shown) {
      const line = full ? '' : `${'  '.repeat(level)}- ${elementLine(node, v)}`;
      if (!full && lines.length >= options.maxNodes) cuts.cappedBy = 'lines';
      else if (!full && chars + line.length + 1 > options.maxChars) cuts.cappedBy = 'size';
      full ||= cuts.cappedBy !== undefined;
      if (full) cuts.beyondCap++;
      else {
        lines.push(line);
        chars += line.length + 1;
      }
    }
    // The cut is named at the nearest element with a line: a wrapper without one has no path the reader saw.
    if (node.unexpanded) noteUnexpanded(node, shown ? node : lineAbove, options, cuts, full);
    for (const child of node.children) visit(child, shown ? level + 1 : level, shown ? node : lineAbove);
  };
  visit(root, 0);

  const closing = closingLine(cuts, options, v, root);
  return [
    ...lines,
    ...cuts.offScreen.slice(0, LISTED_REFS).map((node) => offScreenLine(node, options, v)),
    ...(closing ? [closing] : []),
  ].join('\n');
}

/** What a long container left off screen, and how to reach it. */
function offScreenLine(node: Walked, options: RenderOptions, v: Vocabulary): string {
  const { from, count } = node.info.shownChildren ?? { from: 0, count: 0 };
  const left = Math.max(0, node.info.childCount - count);
  const where = count === 0 ? 'none of them on screen' : `those shown start at #${from + 1}`;
  // A search by name is fast only where the children carry names (a web page's list items hold theirs in a child).
  const named = node.children.length === 0 || node.children.some((child) => child.info.name !== '');
  const reach = v.reachOffScreen(node, { named, all: options.includeHidden === true });
  return `[off screen: ${plural(left, 'more child', 'more children')} of ${v.name(node)} (${node.info.childCount} in all; ${where}), not read. To reach them: ${reach}]`;
}

/** Whether `node` gets a line of its own: the root always; else a listed role that is not a folded label. */
function getsLine(node: Walked, lineAbove: Walked | undefined, options: RenderOptions): boolean {
  if (!lineAbove) return true;
  const listed = options.roles ? options.roles.has(node.role) : !isChrome(node);
  return listed && !isFoldedLabel(node, lineAbove);
}

/**
 * The elements under and including `node` that would get a line, as the lines above are counted (wrappers and
 * folded labels left out); of one not walked further, only its children are counted, whatever they are.
 */
function printable(node: Walked, lineAbove: Walked | undefined, options: RenderOptions): number {
  const shown = getsLine(node, lineAbove, options);
  const under = node.unexpanded
    ? node.info.childCount
    : node.children.reduce((n, child) => n + printable(child, shown ? node : lineAbove, options), 0);
  return (shown ? 1 : 0) + under;
}

/** Whether elements under `node` went unwalked, so that `size` counts only some of them. */
const hasUnwalked = (node: Walked): boolean =>
  node.unexpanded ? node.info.childCount > 0 : node.children.some(hasUnwalked);

function noteUnexpanded(
  node: Walked,
  named: Walked | undefined,
  options: RenderOptions,
  cuts: Cuts,
  full: boolean,
): void {
  if (node.depth >= options.depth) {
    cuts.belowDepth += node.info.childCount;
    cuts.belowDepthAtLeast ||= node.info.childCount > 0;
  } else cuts.notWalked += node.info.childCount;
  if (named && !full && !cuts.unexpanded.includes(named)) cuts.unexpanded.push(named);
}

function closingLine(cuts: Cuts, options: RenderOptions, v: Vocabulary, root: Walked): string | undefined {
  const parts: string[] = [];
  if (cuts.belowDepth > 0)
    parts.push(
      `${cuts.belowDepthAtLeast ? 'at least ' : ''}${plural(cuts.belowDepth, 'element')} below depth ${options.maxLevel === undefined ? options.depth : options.maxLevel - 1}`,
    );
  if (cuts.notWalked > 0) {
    const why = options.walkTruncated
      ? ` (the walk stopped at its cap${options.walkMaxNodes === undefined ? '' : ` of ${options.walkMaxNodes.toLocaleString('en-US')} elements`})`
      : '';
    parts.push(`${plural(cuts.notWalked, 'element')} not walked${why}`);
  }
  if (cuts.beyondCap > 0) {
    const cap = cuts.cappedBy === 'lines' ? v.lineCap(options.maxNodes) : v.sizeCap(options.maxChars);
    parts.push(`${plural(cuts.beyondCap, 'element')} beyond ${cap}`);
  }
  if (parts.length === 0) return undefined;
  const shown = cuts.unexpanded
    .slice(0, LISTED_REFS)
    .map((node) => v.name(node))
    .join(', ');
  const more = cuts.unexpanded.length > LISTED_REFS ? ` (+${cuts.unexpanded.length - LISTED_REFS} more)` : '';
  const under = shown ? `; children not shown under ${shown}${more}` : '';
  // More lines show more only where their count stopped the output (or the walk), below their limit, and not
  // where the characters' cap cut it.
  const moreLines =
    options.maxNodes < SNAPSHOT_DEFAULTS.maxNodesLimit &&
    cuts.cappedBy !== 'size' &&
    (cuts.notWalked > 0 || cuts.cappedBy === 'lines');
  const cut = {
    depth: cuts.belowDepth > 0,
    size: cuts.notWalked + cuts.beyondCap > 0,
    moreLines,
    all: options.includeHidden,
    // Nothing below the walk's root was named: a subtree is the reader's to pick.
    rootOnly: cuts.unexpanded.length === 0,
  };
  return `[cut: ${parts.join('; ')}${under}. To see more: ${v.readMore(cuts.unexpanded[0] ?? root, cut)}]`;
}

/**
 * One short line for a snapshot's header, or none when nothing was recognised and the app is idle:
 * `UI: file_save_dialog (name e44, save e116, cancel e115), text_editor (editor e19); state: modal_dialog`.
 */
export function readingLine(reading: UiReading, v: Vocabulary = AGENT): string | undefined {
  if (reading.patterns.length === 0 && reading.state === 'idle') return undefined;
  if (!v.refs) return readingLines(reading, v);
  const patterns = reading.patterns.map((p) => {
    const refs = p.steps.map((s) =>
      s.node
        ? `${s.part} ${v.name(s.node)}`
        : `${s.part} ${JSON.stringify(s.words.text)} at ${s.point.x},${s.point.y}`,
    );
    return refs.length > 0 ? `${p.pattern} (${refs.join(', ')})` : p.pattern;
  });
  return patterns.length > 0
    ? `UI: ${patterns.join(', ')}; state: ${reading.state}`
    : `UI state: ${reading.state}`;
}

/**
 * The same for a person: each part on a line of its own, so a path copies without the punctuation around it,
 * and the ids in words (`file save dialog`, `modal dialog`).
 */
function readingLines(reading: UiReading, v: Vocabulary): string {
  const spoken = (id: string) => id.replaceAll('_', ' ');
  const lines = reading.patterns.flatMap((p) => [
    `UI: ${spoken(p.pattern)}`,
    ...p.steps.map((s) =>
      s.node
        ? `  ${spoken(s.part)}: ${v.name(s.node)}`
        : `  ${spoken(s.part)}: ${JSON.stringify(s.words.text)} at ${s.point.x},${s.point.y}`,
    ),
  ]);
  return [...lines, `UI state: ${spoken(reading.state)}`].join('\n');
}
