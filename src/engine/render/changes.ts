/**
 * What an action changed, as the agent reads it: windows that opened or closed first, then lines added (+),
 * changed (~, with what the line was) and removed (-); at most DIFF_MAX_LINES of them.
 */
import { elementLine, lineExtras } from './line.js';
import type { Change } from '../kernel/results.js';
import { plural } from '../../text.js';
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

function changeLine(change: Change, v: Vocabulary): string {
  switch (change.kind) {
    case 'opened':
      return `+ opened: ${elementLine(change.node, v)}`;
    case 'closed':
      return `- closed: ${elementLine(change.node, v)}`;
    case 'added':
      return `+ ${elementLine(change.node, v)}`;
    case 'changed':
      return `~ ${[elementLine(change.node, v), changeNote(change.was as Walked, change.node, v)].filter(Boolean).join(' ')}`;
    case 'removed':
      return `- ${elementLine(change.node, v)}`;
  }
}

/** The changes as the agent reads them: one line each, at most maxLines, or a line saying nothing changed. */
export function renderChanges(
  changes: readonly Change[],
  maxLines = DIFF_MAX_LINES,
  v: Vocabulary = AGENT,
): string {
  if (changes.length === 0) return 'Nothing changed in the app’s UI.';
  const shown = changes.slice(0, maxLines).map((change) => changeLine(change, v));
  if (changes.length > maxLines) {
    shown.push(
      `[${plural(changes.length - maxLines, 'more change')} not shown; ${v.readTree(changes[0]?.node)}]`,
    );
  }
  return ['Changes:', ...shown].join('\n');
}
