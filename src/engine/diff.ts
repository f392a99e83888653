/**
 * What an action changed: two walks of the affected app compared by element identity (handle), not by text.
 * Top-level windows that opened or closed come first, then lines added (+), changed (~) and removed (-).
 * Elements inside a window that closed are not listed one by one; those inside one that opened are.
 */
import { elementLine, lineExtras } from './line.js';
import { isChrome } from './snapshot.js';
import { plural } from './text.js';
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

export function diffApp(before: Walked, after: Walked, maxLines = DIFF_MAX_LINES): string {
  const beforeTop = new Set(before.children.map(key));
  const afterTop = new Set(after.children.map(key));
  const closed = before.children.filter((w) => !afterTop.has(key(w)));
  const opened = after.children.filter((w) => !beforeTop.has(key(w)));

  const out: string[] = [
    ...opened.map((w) => `+ opened: ${elementLine(w)}`),
    ...closed.map((w) => `- closed: ${elementLine(w)}`),
  ];
  const old = lines(before, new Set(closed.map(key)));
  const now = lines(after, new Set());
  const openedIds = new Set(opened.map(key));

  for (const [id, node] of now) {
    if (openedIds.has(id)) continue;
    const was = old.get(id);
    if (!was) out.push(`+ ${elementLine(node)}`);
    else if (elementLine(was) !== elementLine(node))
      out.push(`~ ${elementLine(node)} ${changeNote(was, node)}`);
  }
  for (const [id, node] of old) if (!now.has(id)) out.push(`- ${elementLine(node)}`);

  if (out.length === 0) return 'Nothing changed in the app’s UI.';
  const shown = out.slice(0, maxLines);
  if (out.length > maxLines) {
    shown.push(
      `[${plural(out.length - maxLines, 'more change')} not shown; snapshot_ui shows the whole tree]`,
    );
  }
  return ['Changes:', ...shown].join('\n');
}
