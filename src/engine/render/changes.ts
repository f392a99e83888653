/**
 * What an action changed, as the agent reads it: windows that opened or closed first, then lines added (+),
 * changed (~, with what the line was) and removed (-); at most DIFF_MAX_LINES of them.
 */
import { elementLine, lineExtras } from './line.js';
import type { Change } from '../kernel/results.js';
import { plural } from '../../text.js';
import { MENU_ROLES } from '../kernel/roles.js';
import type { Walked } from '../kernel/tree.js';
import { AGENT, type Vocabulary } from './vocabulary.js';

export const DIFF_MAX_LINES = 30;

function changeNote(before: Walked, after: Walked, v: Vocabulary): string {
  if (before.info.name !== after.info.name) return `(was: ${elementLine(before, v)})`;
  const extras = lineExtras(before, v);
  if (extras.length > 0) return `(was: ${extras.join(' ')})`;
  // Nothing to quote: what the line has now, each said absent ("not checked", "no value").
  const absent = lineExtras(after, v).map((extra) => {
    const key = /^(\w+)=/.exec(extra)?.[1];
    return key ? `no ${key}` : `not ${extra}`;
  });
  return absent.length > 0 ? `(was: ${absent.join(', ')})` : '';
}

function changeLine(change: Change, v: Vocabulary, hid = 0): string {
  switch (change.kind) {
    case 'opened':
      return `+ opened: ${elementLine(change.node, v)}`;
    case 'closed':
      return `- closed: ${elementLine(change.node, v)}`;
    case 'added':
      return `+ ${elementLine(change.node, v)}`;
    case 'changed': {
      const closed = hid > 0 ? `: it closed, hiding its ${plural(hid, 'item')}` : '';
      return `~ ${[elementLine(change.node, v), changeNote(change.was as Walked, change.node, v)].filter(Boolean).join(' ')}${closed}`;
    }
    case 'removed':
      return `- ${elementLine(change.node, v)}`;
  }
}

/** Whether a menu's line says it closed: it was open (selected or expanded) and is no longer. */
const closed = (was: Walked, now: Walked): boolean =>
  OPEN_STATES.some((state) => was.info.states.includes(state) && !now.info.states.includes(state));
const OPEN_STATES = ['selected', 'expanded'] as const;

/**
 * A menu that closed hid its items, which are still there: they are counted on the menu's line rather than
 * each listed as removed. `hidden`: the items each changed menu hid.
 */
function foldClosedMenus(changes: readonly Change[]): { kept: Change[]; hidden: Map<Change, number> } {
  const menus = changes.filter(
    (c) =>
      c.kind === 'changed' && MENU_ROLES.has(c.node.role) && c.was !== undefined && closed(c.was, c.node),
  );
  const hidden = new Map<Change, number>();
  const kept = changes.filter((change) => {
    if (change.kind !== 'removed') return true;
    const menu = menus.find((m) => change.node.path.startsWith(`${m.node.path}/`));
    if (menu) hidden.set(menu, (hidden.get(menu) ?? 0) + 1);
    return menu === undefined;
  });
  return { kept, hidden };
}

const tookFocus = (c: Change): boolean =>
  c.node.info.states.includes('focused') &&
  (c.kind === 'added' || (c.kind === 'changed' && c.was?.info.states.includes('focused') === false));

/**
 * Of more changes than are shown, where the keyboard focus went is always among them, after windows that opened
 * or closed: a key that moves the focus down a page also scrolls it, and the page's scrolled lines came first.
 */
function focusFirst(changes: readonly Change[]): Change[] {
  const windows = changes.filter((c) => c.kind === 'opened' || c.kind === 'closed');
  const focus = changes.filter((c) => !windows.includes(c) && tookFocus(c));
  return [...windows, ...focus, ...changes.filter((c) => !windows.includes(c) && !focus.includes(c))];
}

/** The changes as the agent reads them: one line each, at most maxLines, or a line saying nothing changed. */
export function renderChanges(
  changes: readonly Change[],
  maxLines = DIFF_MAX_LINES,
  v: Vocabulary = AGENT,
): string {
  if (changes.length === 0) return 'Nothing changed in the app’s UI.';
  const folded = foldClosedMenus(changes);
  const { hidden } = folded;
  const kept = folded.kept.length > maxLines ? focusFirst(folded.kept) : folded.kept;
  const shown = kept.slice(0, maxLines).map((change) => changeLine(change, v, hidden.get(change)));
  if (kept.length > maxLines) {
    shown.push(`[${plural(kept.length - maxLines, 'more change')} not shown; ${v.readTree(kept[0]?.node)}]`);
  }
  return ['Changes:', ...shown].join('\n');
}
