/** Words into lines for tesseract's answers, and a second reading's words merged into the first's. */
import { describe, expect, it } from 'vitest';
import type { RecognizedWord } from '../../../../../src/helper-client/protocol.js';
import { readingOrder } from '../../../../../src/bounds.js';
import { groupWords, mergeRereads, unsure } from '../../../../../src/platforms/linux/ocr/lines.js';

const word = (text: string, x: number, y: number, width = text.length * 7, height = 10, confidence = 0.9) =>
  ({ text, bounds: { x, y, width, height }, confidence }) satisfies RecognizedWord;

describe('groupWords', () => {
  it('joins words a space apart on one row into a line, with the box around them and their mean confidence', () => {
    const [line, ...rest] = groupWords([
      word('simple', 52, 101, 42, 10, 0.8),
      word('A', 40, 100, 7, 10, 1),
      word('app', 100, 102, 21, 8, 0.9),
    ]);
    expect(rest).toEqual([]);
    expect(line?.text).toBe('A simple app');
    expect(line?.bounds).toEqual({ x: 40, y: 100, width: 81, height: 11 });
    expect(line?.confidence).toBeCloseTo(0.9);
    expect(line?.words.map((w) => w.text)).toEqual(['A', 'simple', 'app']);
  });

  it('splits a row where a column or another control starts (a gap wider than 1.5 line heights)', () => {
    // Tesseract reads a side list's "Builder" and the pane's "Application Class" beside it as one line.
    const lines = groupWords([
      word('Builder', 264, 198, 45),
      word('Application', 482, 196),
      word('Class', 566, 196),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Builder', 'Application Class']);
  });

  it('keeps rows apart that do not overlap by half a line, and orders lines top to bottom, then left to right', () => {
    const lines = groupWords([
      word('Second', 10, 30),
      word('right', 300, 2),
      word('First', 10, 0),
      word('lower', 60, 36),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['First', 'right', 'Second', 'lower']);
  });
});

describe('readingOrder', () => {
  it('reads boxes whose middles are within half a line as one row', () => {
    const boxes = [
      { id: 'b', bounds: { x: 50, y: 3, width: 5, height: 10 } },
      { id: 'a', bounds: { x: 0, y: 0, width: 5, height: 10 } },
      { id: 'c', bounds: { x: 0, y: 20, width: 5, height: 10 } },
    ];
    expect(readingOrder(boxes).map((b) => b.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('mergeRereads', () => {
  const area = { x: 0, y: 0, width: 200, height: 24 };

  it('adds the words of an area the first reading missed (light text on a dark row)', () => {
    const merged = mergeRereads([word('Assistant', 20, 40)], [{ area, words: [word('Application', 20, 6)] }]);
    expect(merged.map((w) => w.text).sort()).toEqual(['Application', 'Assistant']);
  });

  it('replaces garbled words by a more confident reading, and keeps them against a less confident one', () => {
    const garbled = word('Appl1cat', 20, 6, 60, 10, 0.4);
    const better = mergeRereads([garbled], [{ area, words: [word('Application', 20, 6, 70, 10, 0.95)] }]);
    expect(better.map((w) => w.text)).toEqual(['Application']);
    const worse = mergeRereads([word('Application', 20, 6, 70, 10, 0.95)], [{ area, words: [garbled] }]);
    expect(worse.map((w) => w.text)).toEqual(['Application']);
  });

  it('drops a piece of a word kept outside the area (an area that cut a word in two)', () => {
    const title = word('Application', 570, 93, 87, 13, 0.95);
    const piece = {
      area: { x: 572, y: 92, width: 24, height: 16 },
      words: [word('Ap', 574, 94, 21, 12, 0.77)],
    };
    expect(mergeRereads([title], [piece]).map((w) => w.text)).toEqual(['Application']);
  });

  it('ignores an area read again with nothing found', () => {
    expect(mergeRereads([word('Run', 10, 5)], [{ area, words: [] }]).map((w) => w.text)).toEqual(['Run']);
  });
});

describe('unsure', () => {
  const area = { x: 0, y: 0, width: 200, height: 24 };
  it('asks a second reading of an area where nothing or only unsure words were read, not of one read well', () => {
    expect(unsure(area, [word('Assistant', 20, 40)])).toBe(true);
    expect(unsure(area, [word('Appl1cat', 20, 6, 60, 10, 0.5)])).toBe(true);
    expect(unsure(area, [word('Application', 20, 6, 70, 10, 0.96)])).toBe(false);
  });
});
