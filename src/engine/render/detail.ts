/** get_element's answer: everything about one element, one field a line. */
import type { ElementDetail } from '../../helper-client/protocol.js';
import type { ElementResult } from '../kernel/results.js';
import { roleOf } from '../kernel/roles.js';
import { isSecure } from '../kernel/tree.js';
import { AGENT, type Vocabulary } from './vocabulary.js';
import { oneLine } from '../../text.js';

/** Attributes that can carry a field's text; left out for secure fields. */
export const TEXTUAL = /value|text|content/i;

export function renderDetail({ entry, detail: d, shownText }: ElementResult, v: Vocabulary = AGENT): string {
  const secure = isSecure(d);
  const native = d.subrole ? `${d.nativeRole}, ${d.subrole}` : d.nativeRole;
  const attributes = Object.entries(d.attributes).filter(([key]) => !(secure && TEXTUAL.test(key)));
  const lines = [
    v.refs ? `ref: ${entry.ref}` : undefined,
    `path: ${entry.path}`,
    `role: ${roleOf(d)} (native: ${native})`,
    `name: ${JSON.stringify(oneLine(d.name))}`,
    `value: ${valueField(d, secure)}`,
    d.range ? `range: ${d.range.min} to ${d.range.max}` : undefined,
    shownText === undefined ? undefined : `text shown: ${JSON.stringify(oneLine(shownText))}`,
    d.description ? `description: ${JSON.stringify(d.description)}` : undefined,
    d.identifier ? `identifier: ${JSON.stringify(d.identifier)}` : undefined,
    d.shortcut ? `shortcut: ${d.shortcut}` : undefined,
    `states: ${d.states.length > 0 ? d.states.join(', ') : 'none'}`,
    d.bounds
      ? `bounds: x=${d.bounds.x} y=${d.bounds.y} width=${d.bounds.width} height=${d.bounds.height}`
      : 'bounds: unknown',
    `actions: ${d.actions.length > 0 ? d.actions.join(', ') : 'none'}`,
    attributes.length > 0
      ? `attributes: ${attributes.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`
      : undefined,
    `children: ${d.childCount}`,
  ];
  return lines.filter((line) => line !== undefined).join('\n');
}

function valueField(d: ElementDetail, secure: boolean): string {
  if (secure) return '(secure field: its value is never shown)';
  if (d.value === undefined) return 'none';
  const cut = d.valueTruncated && typeof d.value === 'string' ? ` (cut at ${d.value.length} chars)` : '';
  return `${JSON.stringify(d.value)}${cut}`;
}
