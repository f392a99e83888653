/**
 * What an action changed: two walks of the affected app compared by element identity (handle), not by text.
 * Top-level windows that opened or closed come first, then elements added, changed (what a line shows of them
 * differs) and removed. Elements inside a window that closed are not listed one by one; those inside one that
 * opened are.
 */
import type { Change } from './results.js';
import { isChrome, sameShown } from './shown.js';
import type { Walked } from './tree.js';

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
    else if (!sameShown(was, node)) out.push({ kind: 'changed', node, was });
  }
  for (const [id, node] of old) if (!now.has(id)) out.push({ kind: 'removed', node });
  return out;
}
