/**
 * Words into lines, for tesseract's answers. Tesseract's own lines run across a UI's columns ("Builder" in a side
 * list and "Application Class" in the pane beside it come out as one line), and words read again in a second pass
 * have no line at all: so lines are rebuilt from the words' boxes alone. Image pixels throughout.
 */
import { readingOrder, unionBounds } from '../../../bounds.js';
import type { Bounds, RecognizedLine, RecognizedWord } from '../../../helper-client/protocol.js';

/** A gap wider than this many line heights between two words starts a new line: a column or a control apart. */
const GAP_IN_HEIGHTS = 1.5;
/** Two words share a line when their boxes overlap vertically by at least this share of the shorter one. */
const SAME_ROW = 0.5;

function verticalOverlap(a: Bounds, b: Bounds): number {
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return overlap / Math.max(1, Math.min(a.height, b.height));
}

/** Lines from words: left to right within a line, lines top to bottom then left to right. */
export function groupWords(words: readonly RecognizedWord[]): RecognizedLine[] {
  const rows: RecognizedWord[][] = [];
  for (const word of [...words].sort((a, b) => a.bounds.x - b.bounds.x)) {
    const row = rows.find((candidate) => {
      const last = candidate[candidate.length - 1] as RecognizedWord;
      const height = Math.max(last.bounds.height, word.bounds.height);
      const gap = word.bounds.x - (last.bounds.x + last.bounds.width);
      return (
        verticalOverlap(last.bounds, word.bounds) >= SAME_ROW &&
        gap >= -height / 2 &&
        gap <= GAP_IN_HEIGHTS * height
      );
    });
    if (row) row.push(word);
    else rows.push([word]);
  }
  return readingOrder(rows.map(lineOf));
}

function lineOf(words: RecognizedWord[]): RecognizedLine {
  const confidence = words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
  return {
    text: words.map((w) => w.text).join(' '),
    bounds: unionBounds(words.map((w) => w.bounds)),
    confidence,
    words,
  };
}

/** Whether the middle of `box` is in `area`. */
export const inside = (box: Bounds, area: Bounds) => {
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  return x >= area.x && x < area.x + area.width && y >= area.y && y < area.y + area.height;
};

const meanConfidence = (words: readonly RecognizedWord[]) =>
  words.reduce((sum, w) => sum + w.confidence, 0) / Math.max(1, words.length);

/** Words read with at least this mean confidence in an area need no second reading. */
const SURE = 0.85;

/** Whether an area deserves a second reading: the words read in it are none, or read with little confidence. */
export function unsure(area: Bounds, words: readonly RecognizedWord[]): boolean {
  const there = words.filter((w) => inside(w.bounds, area));
  return there.length === 0 || meanConfidence(there) < SURE;
}

/** A second reading of one area of the image: the area and the words read there. */
export interface Reread {
  area: Bounds;
  words: RecognizedWord[];
}

/**
 * The first pass's words, with each reread area's words in place of those the first pass had there when the
 * reread found words at least as confident (a missed or garbled light-on-dark label).
 */
export function mergeRereads(first: readonly RecognizedWord[], rereads: readonly Reread[]): RecognizedWord[] {
  let words = [...first];
  for (const { area, words: again } of rereads) {
    if (again.length === 0) continue;
    const there = words.filter((w) => inside(w.bounds, area));
    if (there.length > 0 && meanConfidence(again) < meanConfidence(there)) continue;
    const kept = words.filter((w) => !inside(w.bounds, area));
    // A word read again that overlaps one kept is a piece of it (an area that cut a word in two).
    const added = again.filter((w) => !kept.some((k) => overlap(k.bounds, w.bounds) > SAME_WORD));
    words = [...kept, ...added];
  }
  return words;
}

/** Boxes sharing this much of the smaller one's area show the same word. */
const SAME_WORD = 0.3;

/** The share of the smaller box's area that two boxes share. */
function overlap(a: Bounds, b: Bounds): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return 0;
  return (width * height) / Math.max(1, Math.min(a.width * a.height, b.width * b.height));
}
