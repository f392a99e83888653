/** One element as one line of text: `button "Save" [ref=e12] disabled`, `textbox "Name" [ref=e9] value="Ada"`. */
import { mayBeNamedByEntry, nameLength } from '../kernel/entered.js';
import { type Shown, shownName, shownOf } from '../kernel/shown.js';
import type { Walked } from '../kernel/tree.js';
import { joinWords, type Words } from '../kernel/words.js';
import { AGENT, type Vocabulary } from './vocabulary.js';

export function elementLine(node: Walked, v: Vocabulary = AGENT): string {
  const name = shownName(node);
  const masked =
    v.valueLengths && mayBeNamedByEntry(node.role, node.path, node.info.states.includes('editable'));
  const head =
    name === '' ? [node.role] : [node.role, masked ? `name=${nameLength(name)}` : JSON.stringify(name)];
  return [...head, v.tag(node), ...lineExtras(node, v)].join(' ');
}

/** The words a line shows after the ref (kernel/shown.ts says which facts). */
export function lineExtras(node: Walked, v: Vocabulary = AGENT): string[] {
  const shown = shownOf(node);
  return [
    shown.level === undefined ? '' : `level=${shown.level}`,
    ...shown.states,
    valueText(shown, node, v),
    shortcutText(shown.shortcut),
    shown.description ? `description=${JSON.stringify(shown.description)}` : '',
  ].filter(Boolean);
}

/** `shortcut=Ctrl+S`: what press_key takes to trigger the element. */
export const shortcutText = (shortcut: string | undefined): string =>
  shortcut ? `shortcut=${shortcut}` : '';

function valueText({ value, valueCut }: Shown, node: Walked, v: Vocabulary): string {
  if (value === undefined) return '';
  // A scroll bar's position in pixels carries float noise (227097.74041058286): three decimals say it all.
  if (typeof value === 'number') return `value=${Number(value.toFixed(3))}`;
  if (v.valueLengths && typeof value === 'string')
    return `value=(${valueCut?.total ?? Array.from(value).length} characters)`;
  if (!valueCut) return `value=${JSON.stringify(value)}`;
  const total = valueCut.over ? `over ${valueCut.total}` : `${valueCut.total}`;
  return `value=${JSON.stringify(value)}… (cut: ${total} chars in all; ${v.readValue(node)})`;
}

/** An element met alone (focused, at a point, awaited): its line and its path. */
export const locatedLines = (node: Walked, v: Vocabulary = AGENT): string =>
  v.refs ? `- ${elementLine(node, v)}\npath: ${node.path}` : `- ${elementLine(node, v)}`;

/** The engine's words as text: the app's text as it is (the caller places the fence), an element as its lines. */
export const wordsText = (w: Words, v: Vocabulary = AGENT): string =>
  joinWords(
    w,
    (node) => locatedLines(node, v),
    (entry) => `${entry.label} ${v.tag(entry)}`,
  );
