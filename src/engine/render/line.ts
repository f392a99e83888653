/** One element as one line of text: `button "Save" [ref=e12] disabled`, `textbox "Name" [ref=e9] value="Ada"`. */
import { ElementState } from '../../helper-client/protocol.js';
import { clip, normalizeName } from '../../text.js';
import { isSecure, type Walked } from '../kernel/tree.js';

/** States that describe nearly every control and are not worth a token on each line. */
const UNSHOWN_STATES: ReadonlySet<ElementState> = new Set(['focusable', 'selectable', 'editable']);
const SHOWN_STATES = ElementState.options.filter((state) => !UNSHOWN_STATES.has(state));

export const NAME_CHARS = 150;
export const VALUE_CHARS = 200;

export function elementLine(node: Walked): string {
  const name = clip(node.info.name, NAME_CHARS);
  const head = name === '' ? [node.role] : [node.role, JSON.stringify(name)];
  return [...head, `[ref=${node.ref}]`, ...lineExtras(node)].join(' ');
}

/**
 * The states, value and shortcut a line shows after the ref, and the description of an element without a name
 * (an icon, an icon button): the only words it has.
 */
export function lineExtras(node: Walked): string[] {
  const { info } = node;
  const secure = isSecure(info);
  const states = SHOWN_STATES.filter((s) => info.states.includes(s) || (s === 'secure' && secure));
  const value = secure ? '' : valueText(info.value, info.valueTruncated === true, info.name);
  const description = normalizeName(info.name) === '' ? clip(info.description ?? '', NAME_CHARS) : '';
  return [
    ...states,
    value,
    shortcutText(info.shortcut),
    description ? `description=${JSON.stringify(description)}` : '',
  ].filter(Boolean);
}

/** `shortcut=Ctrl+S`: what press_key takes to trigger the element. */
export const shortcutText = (shortcut: string | undefined): string =>
  shortcut ? `shortcut=${shortcut}` : '';

/** `value="..."` for text and numbers; toggles are already in the states, and a value equal to the name is noise. */
function valueText(value: string | number | boolean | undefined, truncated: boolean, name: string): string {
  if (typeof value === 'number') return `value=${value}`;
  if (typeof value !== 'string' || value === '' || value === name) return '';
  if (value.length <= VALUE_CHARS && !truncated) return `value=${JSON.stringify(value)}`;
  const total = truncated ? `over ${value.length}` : `${value.length}`;
  return `value=${JSON.stringify(value.slice(0, VALUE_CHARS))}… (cut: ${total} chars in all; get_element shows it all)`;
}

/** An element met alone (focused, at a point, awaited): its line and its path. */
export const locatedLines = (node: Walked): string => `- ${elementLine(node)}\npath: ${node.path}`;
