/**
 * What an action changed: two walks of the affected app compared by element identity (handle), not by text.
 * Top-level windows that opened or closed come first, then lines added (+), changed (~) and removed (-).
 * Elements inside a window that closed are not listed one by one; those inside one that opened are.
 */
import { elementLine, lineExtras } from '../render/line.js';
import type { Change } from './results.js';
import { isChrome } from '../render/snapshot.js';
import { plural } from '../../text.js';
import type { Walked } from './tree.js';

export const DIFF_MAX_LINES = 30;

const key = (node: Walked) => node.info.id;

/** Non-chrome elements below the app root, by handle, in document order, leaving out the `skip` subtrees. */
function lines(app: Walked, skip: ReadonlySet<string>): Map<string, Walked> {
  const out = new Map<string, Walked>();
  const visit = (node: Walked) => {
    if (skip.has(key(node))) return;
    if (!isChrome(node)) out.set(key(node), node);
    node.children.forEach(visit);
  };
  app.children.forEach(visit);
  return out;
}

function changeNote(before: Walked, after: Walked): string {
  if (before.info.name !== after.info.name) return `(was: ${elementLine(before)})`;
  const extras = lineExtras(before);
  return `(was: ${extras.length > 0 ? extras.join(' ') : 'no states'})`;
}

/** The changes between two walks of one app, windows first. */
export function diffApp(before: Walked, after: Walked): Change[] {
  const beforeTop = new Set(before.children.map(key));
  const afterTop = new Set(after.children.map(key));
  const closed = before.children.filter((w) => !afterTop.has(key(w)));
  const opened = after.children.filter((w) => !beforeTop.has(key(w)));

  const out: Change[] = [
    ...opened.map((node): Change => ({ kind: 'opened', node })),
    ...closed.map((node): Change => ({ kind: 'closed', node })),
  ];
  const old = lines(before, new Set(closed.map(key)));
  const now = lines(after, new Set());
  const openedIds = new Set(opened.map(key));

  for (const [id, node] of now) {
    if (openedIds.has(id)) continue;
    const was = old.get(id);
    if (!was) out.push({ kind: 'added', node });
    else if (elementLine(was) !== elementLine(node)) out.push({ kind: 'changed', node, was });
  }
  for (const [id, node] of old) if (!now.has(id)) out.push({ kind: 'removed', node });
  return out;
}

function changeLine(change: Change): string {
  switch (change.kind) {
    case 'opened':
      return `+ opened: ${elementLine(change.node)}`;
    case 'closed':
      return `- closed: ${elementLine(change.node)}`;
    case 'added':
      return `+ ${elementLine(change.node)}`;
    case 'changed':
      return `~ ${elementLine(change.node)} ${changeNote(change.was as Walked, change.node)}`;
    case 'removed':
      return `- ${elementLine(change.node)}`;
  }
}

/** The changes as the agent reads them: one line each, at most maxLines, or a line saying nothing changed. */
export function renderChanges(changes: readonly Change[], maxLines = DIFF_MAX_LINES): string {
  if (changes.length === 0) return 'Nothing changed in the app’s UI.';
  const shown = changes.slice(0, maxLines).map(changeLine);
  if (changes.length > maxLines) {
    shown.push(
      `[${plural(changes.length - maxLines, 'more change')} not shown; snapshot_ui shows the whole tree]`,
    );
  }
  return ['Changes:', ...shown].join('\n');
}
