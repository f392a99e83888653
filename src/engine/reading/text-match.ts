/**
 * Text read by OCR, in screen terms: boxes mapped from image pixels to screen points, and a text looked up among
 * the lines (find_text, click_text), with several matches refused as refs are, candidates listed.
 */
import { readingOrder, unionBounds } from '../../bounds.js';
import { MacpilotError } from '../../errors.js';
import type { Bounds, RecognizedLine, RecognizedWord } from '../../helper-client/protocol.js';
import { clip, normalizeName, plural } from '../../text.js';
import { dataNote } from '../../untrusted.js';
import type { TextMatch } from '../kernel/results.js';
import type { ScreenLine, ScreenWord } from '../kernel/screen-lines.js';
import { geometry } from '../../bounds.js';

/** Where a capture is on screen and its image pixels per screen point. */
export interface CaptureGeometry {
  bounds: Bounds;
  scale: number;
}

/** How a text matches: whole words in a row (default), a whole line, or any part of a line. */
export type TextMatchMode = 'words' | 'exact' | 'contains';

const round = (n: number) => Math.round(n * 10) / 10;

/** A box in image pixels as screen points: divided by the scale, moved by the capture's origin. */
export function toScreenBox(box: Bounds, capture: CaptureGeometry): Bounds {
  const { bounds, scale } = capture;
  return {
    x: round(bounds.x + box.x / scale),
    y: round(bounds.y + box.y / scale),
    width: round(box.width / scale),
    height: round(box.height / scale),
  };
}

const screenWord = (word: RecognizedWord, capture: CaptureGeometry): ScreenWord => ({
  text: word.text,
  bounds: toScreenBox(word.bounds, capture),
  confidence: Math.round(word.confidence * 100) / 100,
});

/**
 * The recognizer's lines in screen points, without empty ones, in reading order: occurrences are counted in it,
 * and Vision does not promise its observations in any order.
 */
export function toScreenLines(lines: readonly RecognizedLine[], capture: CaptureGeometry): ScreenLine[] {
  return readingOrder(
    lines
      .filter((line) => line.text.trim() !== '')
      .map((line) => ({
        ...screenWord(line, capture),
        words: line.words.map((w) => screenWord(w, capture)),
      })),
  );
}

/**
 * A word as matched: lower case, in the parts that punctuation inside it separates ("report2.txt" is "report2"
 * and "txt", "OK." and "(ok)" are "ok"); an apostrophe does not separate ("don't"). All punctuation: itself.
 */
const parts = (word: string): string[] => {
  const lower = word.toLowerCase();
  const found = lower.split(/[^\p{L}\p{N}'\u2019]+/u).filter(Boolean);
  return found.length > 0 ? found : [lower];
};

function matchOf(words: readonly ScreenWord[], line: ScreenLine): Omit<TextMatch, 'occurrence'> {
  const box = unionBounds(words.map((w) => w.bounds));
  const bounds = { ...box, width: round(box.width), height: round(box.height) };
  return {
    text: words.map((w) => w.text).join(' '),
    line: line.text,
    bounds,
    centre: { x: Math.round(bounds.x + bounds.width / 2), y: Math.round(bounds.y + bounds.height / 2) },
    confidence: Math.min(...words.map((w) => w.confidence)),
  };
}

/** The runs of a line's words that `mode` matches to the text. */
function inLine(line: ScreenLine, text: string, mode: TextMatchMode): ScreenWord[][] {
  const { words } = line;
  if (words.length === 0) return [];
  if (mode === 'exact') {
    return normalizeName(line.text).toLowerCase() === normalizeName(text).toLowerCase() ? [words] : [];
  }
  if (mode === 'contains') {
    // Each word as compared (normalised like the text, lower case: either may change its length) and its place
    // in the line's text as the words join it, so that a part of the text maps to words.
    const wanted = normalizeName(text).toLowerCase();
    const texts = words.map((w) => normalizeName(w.text).toLowerCase());
    const joined = texts.join(' ');
    const starts = texts.map((_, i) => texts.slice(0, i).reduce((n, t) => n + t.length + 1, 0));
    const runs: ScreenWord[][] = [];
    for (
      let at = joined.indexOf(wanted);
      at >= 0;
      at = joined.indexOf(wanted, at + Math.max(1, wanted.length))
    ) {
      const end = at + wanted.length;
      runs.push(
        words.filter(
          (_, i) => (starts[i] as number) < end && (starts[i] as number) + (texts[i] as string).length > at,
        ),
      );
    }
    return runs;
  }
  const wanted = normalizeName(text).split(' ').filter(Boolean).flatMap(parts);
  // Every part of every word, with the word it is of: a run of parts is a run of the words that hold them.
  const have = words.flatMap((w, at) => parts(w.text).map((part) => ({ part, at })));
  const runs: ScreenWord[][] = [];
  for (let i = 0; i + wanted.length <= have.length; i++) {
    if (wanted.every((t, k) => have[i + k]?.part === t)) {
      runs.push(words.slice(have[i]?.at, (have[i + wanted.length - 1]?.at ?? 0) + 1));
    }
  }
  return runs;
}

/** Every match of the text in the lines, in reading order (the lines' order), numbered from 1. */
export function findInLines(lines: readonly ScreenLine[], text: string, mode: TextMatchMode): TextMatch[] {
  // No words to look for would match an empty run of words in every line: a box of Infinity, a centre of NaN.
  if (normalizeName(text) === '') return [];
  return lines
    .flatMap((line) => inLine(line, text, mode).map((run) => matchOf(run, line)))
    .map((match, i) => ({ ...match, occurrence: i + 1 }));
}

const LISTED = 10;

const candidateLine = (m: TextMatch) => {
  const line = JSON.stringify(clip(m.line, 80));
  return `${m.occurrence}. ${JSON.stringify(clip(m.text, 60))} ${geometry(m.bounds)} in the line ${line}`;
};

/**
 * The one match meant: the occurrence-th, or the only one. None, or several without an occurrence, is refused
 * with what was read or the candidates listed.
 */
export function pickMatch(
  matches: readonly TextMatch[],
  request: { text: string; what: string; occurrence?: number; lines: readonly ScreenLine[] },
): TextMatch {
  const { text, what, occurrence } = request;
  const quoted = JSON.stringify(clip(text, 80));
  if (matches.length === 0) {
    const read = request.lines.slice(0, LISTED).map((l) => JSON.stringify(clip(l.text, 60)));
    throw new MacpilotError({
      what: `No text ${quoted} on ${what}`,
      why:
        read.length === 0
          ? 'OCR read no text there'
          : `OCR read ${plural(request.lines.length, 'line')} there ${dataNote('OCR may misread')}, such as ${read.join(', ')}`,
      next: 'check the spelling (match: "contains" finds a part of a line), read_text to see what is read, or name the app whose window shows it',
      kind: 'text_not_found',
      concerns: ['text'],
    });
  }
  if (occurrence !== undefined) {
    const picked = matches[occurrence - 1];
    if (picked) return picked;
    throw new MacpilotError({
      what: `No occurrence ${occurrence} of ${quoted} on ${what}`,
      why: `it appears ${plural(matches.length, 'time')}`,
      next: `give an occurrence from 1 to ${matches.length}`,
      kind: 'no_such_occurrence',
      concerns: ['occurrence'],
    });
  }
  if (matches.length === 1) return matches[0] as TextMatch;
  const listed = matches.slice(0, LISTED).map(candidateLine);
  const more = matches.length > LISTED ? `\n(and ${matches.length - LISTED} more)` : '';
  throw new MacpilotError({
    what: `The text ${quoted} appears ${matches.length} times on ${what}`,
    why: `it is ambiguous; the candidates, in reading order (screen points) ${dataNote()}:\n${listed.join('\n')}${more}`,
    next: 'pick one with occurrence: N, use a longer text that only one shows, or name the app whose window shows it',
    kind: 'text_ambiguous',
    concerns: ['text'],
  });
}
