/**
 * Sentences the engine answers with, kept as parts: macpilot's own words, and the text that came from an app (a
 * name, a value, a title) marked as such. Only render/ turns them into an answer, and it fences the app's text
 * as data there; an error message may join them plainly (plainText).
 */
import { geometry } from '../../bounds.js';
import { clip, plural } from '../../text.js';
import type { WindowInfo } from '../../helper-client/protocol.js';
import type { RefEntry } from './refs.js';
import { labelOf, type Walked } from './tree.js';

/** Text an app gave: data, never instructions. */
export interface AppText {
  readonly appText: string;
}

/** An element the sentence is about: the renderer shows it as its line and path. */
export interface ElementMention {
  readonly element: Walked;
}

/** An element the sentence names in passing: its label (the app's words), then its ref or path, as the reader holds them. */
export interface EntryMention {
  readonly entry: Pick<RefEntry, 'label' | 'ref' | 'path'>;
}

export type Words = readonly (string | AppText | ElementMention | EntryMention)[];

/** What words`` interpolates: the app's text, numbers, or other words. A bare string is refused by the types. */
type Part = AppText | ElementMention | EntryMention | number | Words;

export const appText = (text: string): AppText => ({ appText: text });

export const mention = (element: Walked): ElementMention => ({ element });

/** words`Clicked ${entryWords(entry)} at ${x},${y}.` */
export function words(strings: TemplateStringsArray, ...parts: readonly Part[]): Words {
  const out: (string | AppText | ElementMention | EntryMention)[] = [];
  strings.forEach((text, i) => {
    if (text) out.push(text);
    if (i >= parts.length) return;
    const part = parts[i] as Part;
    if (typeof part === 'number') out.push(String(part));
    else if (Array.isArray(part)) out.push(...(part as Words));
    else out.push(part as AppText | ElementMention | EntryMention);
  });
  return out;
}

/** macpilot's own words, composed elsewhere: never text from an app. */
export const own = (text: string): Words => [text];

export const carriesAppText = (w: Words): boolean => w.some((part) => typeof part !== 'string');

/** An element named in passing as an agent holds it: `button "Save" [ref=e12]`. */
const byRef = (entry: EntryMention['entry']): string => `${entry.label} [ref=${entry.ref}]`;

/**
 * The words as one string, the app's text as it is (nothing marked), each element as `element` writes it and
 * each element named in passing as `entry` does (by default with its ref).
 */
export const joinWords = (
  w: Words,
  element: (node: Walked) => string,
  entry: (entry: EntryMention['entry']) => string = byRef,
): string =>
  w
    .map((part) => {
      if (typeof part === 'string') return part;
      if ('appText' in part) return part.appText;
      return 'entry' in part ? entry(part.entry) : element(part.element);
    })
    .join('');

/** The words as one string, an element by its label and ref: for error messages and JSON. */
export const plainText = (w: Words): string =>
  joinWords(w, (node) => `${labelOf(node.role, node.info.name)} [ref=${node.ref}]`);

/** `button "Save" [ref=e12]` for an agent: an element by its label (the app's words) and its ref (or path). */
export const entryWords = (entry: EntryMention['entry']): Words => [{ entry }];

/** `"mousepad" (pid 42)`. */
export const appWords = (app: { name: string; pid: number }): Words =>
  words`${appText(JSON.stringify(app.name))} (pid ${app.pid})`;

const TITLE_CHARS = 120;

/** `window 41943047 "Untitled 1 - Mousepad" mousepad (pid 123)`. */
/** A window with its title and app; one no app claims (a window manager's own prompt) is said to be so. */
export const windowWords = (w: WindowInfo): Words => {
  const title = appText(JSON.stringify(clip(w.title, TITLE_CHARS)));
  if (w.app === '' && w.pid === 0) return words`window ${own(w.id)} ${title} ${own('(no app or pid known)')}`;
  const app = w.app === '' ? own('(an app without a name)') : appText(w.app);
  return words`window ${own(w.id)} ${title} ${app} (pid ${w.pid})`;
};

const LISTED_WINDOWS = 20;

/** The windows an error offers instead of the one it did not find, the first 20 of them. */
export const windowsListed = (windows: readonly WindowInfo[]): string =>
  windows.length === 0
    ? 'none'
    : windows
        .slice(0, LISTED_WINDOWS)
        .map((w) => plainText(windowWords(w)))
        .join('; ') + (windows.length > LISTED_WINDOWS ? ` (+${windows.length - LISTED_WINDOWS} more)` : '');

/** After a list of windows: how many the person's app lists hide (an agent learns that they exist, never which). */
export const hiddenWindowsNote = (hidden: number): string =>
  hidden > 0
    ? ` (${plural(hidden, 'window is', 'windows are')} hidden by the person's app lists; only the person can change that)`
    : '';

/** What a call naming a window id that no window has is told, with the windows there are. */
export const noWindowWithId = (id: string, windows: readonly WindowInfo[], hidden = 0) => ({
  kind: 'window_not_found',
  concerns: ['window_id'],
  what: `No window has the id ${JSON.stringify(id)}`,
  why: `it closed, or the id is not one list_windows gave; the windows now: ${windowsListed(windows)}${hiddenWindowsNote(hidden)}`,
  next: 'use an id from list_windows, or name the window by app and title',
});

/** A window's label, frame and state: `window 4194 "Untitled" mousepad (pid 123) x=40 y=30 640x480 focused`. */
export function windowStateWords(w: WindowInfo): Words {
  const states = [w.focused ? 'focused' : '', w.minimized ? 'minimized' : ''].filter(Boolean);
  return words`${windowWords(w)} ${own([geometry(w.bounds), ...states].join(' '))}`;
}
