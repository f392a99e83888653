/**
 * What an agent is shown of one element beside its role, name and ref, as data: the states worth a word, the
 * value, the shortcut, and the description of an element without a name. The renderers (render/line.ts) word
 * it; the change tracker compares it (an element changed when what is shown of it did), and an element that
 * shows nothing and only structures others is chrome, which gets no line.
 */
import { ElementState } from '../../helper-client/protocol.js';
import { clip, normalizeName } from '../../text.js';
import { CHROME_ROLES } from './roles.js';
import { isSecure, type Walked } from './tree.js';

/** A line shows at most this much of a name, and of a value. */
const NAME_CHARS = 150;
const VALUE_CHARS = 200;

/** States that describe nearly every control and are not worth a token on each line. */
const UNSHOWN_STATES: ReadonlySet<ElementState> = new Set(['focusable', 'selectable', 'editable']);
const SHOWN_STATES = ElementState.options.filter((state) => !UNSHOWN_STATES.has(state));

export interface Shown {
  states: ElementState[];
  /** Text and numbers; toggles are already in the states, and a value equal to the name is noise. */
  value?: string | number;
  /** The value was cut to VALUE_CHARS: its length in all, at least (`over`) when the helper had cut it too. */
  valueCut?: { total: number; over: boolean };
  shortcut?: string;
  /** A heading's level. */
  level?: number;
  /** Only for an element without a name (an icon, an icon button): the only words it has. */
  description?: string;
}

export function shownOf(node: Walked): Shown {
  const { info } = node;
  const secure = isSecure(info);
  const shown: Shown = {
    states: SHOWN_STATES.filter((s) => info.states.includes(s) || (s === 'secure' && secure)),
  };
  if (!secure) Object.assign(shown, shownValue(info.value, info.valueTruncated === true, info.name));
  if (info.shortcut) shown.shortcut = info.shortcut;
  if (info.level !== undefined) shown.level = info.level;
  const description = normalizeName(info.name) === '' ? shownDescription(node) : '';
  if (description) shown.description = description;
  return shown;
}

function shownValue(value: unknown, truncated: boolean, name: string): Pick<Shown, 'value' | 'valueCut'> {
  if (typeof value === 'number') return { value };
  if (typeof value !== 'string' || value === '' || value === name) return {};
  if (value.length <= VALUE_CHARS && !truncated) return { value };
  return { value: value.slice(0, VALUE_CHARS), valueCut: { total: value.length, over: truncated } };
}

const showsNothing = (shown: Shown): boolean =>
  shown.states.length === 0 &&
  shown.value === undefined &&
  shown.shortcut === undefined &&
  shown.level === undefined &&
  shown.description === undefined;

/** The description as a line shows it. */
export const shownDescription = (node: Walked): string => clip(node.info.description ?? '', NAME_CHARS);

/** The name a line shows. */
export const shownName = (node: Walked): string => clip(node.info.name, NAME_CHARS);

/** Whether two sightings of an element show the same line. */
export const sameShown = (a: Walked, b: Walked): boolean =>
  a.role === b.role &&
  a.ref === b.ref &&
  shownName(a) === shownName(b) &&
  JSON.stringify(shownOf(a)) === JSON.stringify(shownOf(b));

/** An element that only structures others: it gets no line. */
export const isChrome = (node: Walked): boolean =>
  CHROME_ROLES.has(node.role) && normalizeName(node.info.name) === '' && showsNothing(shownOf(node));
