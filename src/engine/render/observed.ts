/** observe_changes' answer: an app's changes over a while, one line each, in words. */
import type { ObservedChange, ObservedResult } from '../kernel/results.js';

const WINDOW_EVENTS: Record<string, string> = {
  create: 'opened',
  windowcreated: 'opened',
  destroy: 'closed',
  activate: 'activated',
  applicationactivated: 'activated',
  deactivate: 'deactivated',
  minimize: 'minimized',
  windowminiaturized: 'minimized',
  restore: 'restored',
  windowmoved: 'moved',
  windowresized: 'resized',
  sheetcreated: 'opened a sheet',
};

/** One change in words: what happened, to which element. */
function changeLine(change: ObservedChange): string {
  const element = change.element
    ? `${change.element.label}${change.element.ref ? ` [ref=${change.element.ref}]` : ''}`
    : '';
  const now = change.element?.value === undefined ? '' : `, now ${JSON.stringify(change.element.value)}`;
  const of = (what: string) => (element ? `${what} of ${element}` : `${what} of an element`);
  switch (change.category) {
    case 'window': {
      const done = change.kinds
        .map((k) => WINDOW_EVENTS[k.split(':').at(-1)!.replace(/^ax:/, '')])
        .find(Boolean);
      return `window ${done ?? 'changed'}${element ? `: ${element}` : ''}`;
    }
    case 'focus':
      return element ? `focus moved to ${element}` : 'focus moved';
    case 'value':
      return `${of('value')} changed${now}`;
    case 'text':
      return `${of('text')} changed${now}`;
    case 'children':
      return element ? `elements added to or removed from ${element}` : 'elements were added or removed';
    case 'name':
      return element ? `${element} was renamed` : 'a name changed';
    case 'state': {
      const details = [...new Set(change.kinds.map((k) => k.split(':')[2]?.replace(/^accessible-/, '')))];
      const what = details.filter(Boolean).join(', ');
      return `${element || 'an element'} changed${what ? ` (${what})` : ''}`;
    }
    case 'selection':
      return element ? `selection in ${element} changed` : 'a selection changed';
    case 'layout':
      return element ? `${element} moved or was resized` : 'the layout changed';
    case 'other':
      return `${change.kinds.join(', ')}${element ? ` on ${element}` : ''}`;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export function renderObserved(r: ObservedResult, fence: string): string {
  const who = `"${r.app.name}" (pid ${r.app.pid})`;
  if (!r.live) {
    return `Cannot watch ${who}: this helper reports no change events here. Compare two snapshot_ui calls instead.`;
  }
  if (r.changes.length === 0) return `No change in ${who} in ${seconds(r.elapsedMs)}.`;
  const head = r.matched
    ? `A matching change in ${who} after ${seconds(r.elapsedMs)}`
    : `${r.changes.length} change${r.changes.length === 1 ? '' : 's'} in ${who} in ${seconds(r.elapsedMs)}`;
  const lines = r.changes.map(
    (c) => `- +${seconds(c.afterMs)} ${changeLine(c)}${c.count > 1 ? ` (${c.count} events)` : ''}`,
  );
  return `${head} ${fence}:\n${lines.join('\n')}`;
}
