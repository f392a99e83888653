/** OCR text in screen terms: boxes scaled to screen points, a text found among lines, ambiguity refused. */
import { describe, expect, it } from 'vitest';
import { MacpilotError } from '../../../../src/errors.js';
import { DATA_FENCE, dataNote } from '../../../../src/untrusted.js';
import type { RecognizedLine } from '../../../../src/helper-client/protocol.js';
import type { ScreenLine, ScreenWord } from '../../../../src/engine/kernel/screen-lines.js';
import {
  findInLines,
  pickMatch,
  toScreenBox,
  toScreenLines,
} from '../../../../src/engine/reading/text-match.js';

const word = (text: string, x: number, y = 100, confidence = 0.9): ScreenWord => ({
  text,
  bounds: { x, y, width: text.length * 7, height: 10 },
  confidence,
});

function line(...words: ScreenWord[]): ScreenLine {
  const last = words[words.length - 1] as ScreenWord;
  const first = words[0] as ScreenWord;
  return {
    text: words.map((w) => w.text).join(' '),
    bounds: {
      x: first.bounds.x,
      y: first.bounds.y,
      width: last.bounds.x + last.bounds.width - first.bounds.x,
      height: 10,
    },
    confidence: Math.min(...words.map((w) => w.confidence)),
    words,
  };
}

describe('toScreenBox and toScreenLines', () => {
  it('maps image pixels to screen points: divided by the scale, moved by the capture origin', () => {
    const capture = { bounds: { x: 235, y: 72, width: 810, height: 656 }, scale: 2 };
    expect(toScreenBox({ x: 100, y: 50, width: 41, height: 21 }, capture)).toEqual({
      x: 285,
      y: 97,
      width: 20.5,
      height: 10.5,
    });
  });

  it('maps every line and word, and leaves out empty lines', () => {
    const recognized: RecognizedLine[] = [
      { text: ' ', bounds: { x: 0, y: 0, width: 4, height: 4 }, confidence: 0.2, words: [] },
      {
        text: 'OK',
        bounds: { x: 10, y: 20, width: 14, height: 10 },
        confidence: 0.934,
        words: [{ text: 'OK', bounds: { x: 10, y: 20, width: 14, height: 10 }, confidence: 0.934 }],
      },
    ];
    const [ok, ...rest] = toScreenLines(recognized, {
      bounds: { x: -1280, y: 0, width: 1280, height: 800 },
      scale: 1,
    });
    expect(rest).toEqual([]);
    expect(ok).toMatchObject({ text: 'OK', bounds: { x: -1270, y: 20 }, confidence: 0.93 });
    expect(ok?.words[0]?.bounds).toEqual({ x: -1270, y: 20, width: 14, height: 10 });
  });

  it('puts lines in reading order, whatever order the recognizer gave them in (Vision promises none)', () => {
    const at = (text: string, x: number, y: number): RecognizedLine => {
      const bounds = { x, y, width: 30, height: 10 };
      return { text, bounds, confidence: 0.9, words: [{ text, bounds, confidence: 0.9 }] };
    };
    const capture = { bounds: { x: 0, y: 0, width: 400, height: 300 }, scale: 2 };
    const lines = toScreenLines([at('Open', 10, 200), at('Open', 200, 20), at('Open', 10, 22)], capture);
    expect(lines.map((l) => [l.bounds.x, l.bounds.y])).toEqual([
      [5, 11],
      [100, 10],
      [5, 100],
    ]);
    expect(
      pickMatch(findInLines(lines, 'open', 'words'), { text: 'open', what: 'x', occurrence: 1, lines })
        .bounds,
    ).toMatchObject({ x: 5, y: 11 });
  });
});

describe('findInLines', () => {
  const lines = [
    line(word('Look', 10), word('here', 50)),
    line(word('Cancel', 10, 200), word('OK.', 80, 200)),
    line(word('Save', 10, 300), word('As…', 50, 300), word('Ok', 120, 300)),
  ];

  it('words (the default way): whole words, case-insensitive, punctuation around them ignored, in reading order', () => {
    const found = findInLines(lines, 'ok', 'words');
    expect(found.map((m) => [m.text, m.occurrence, m.line])).toEqual([
      ['OK.', 1, 'Cancel OK.'],
      ['Ok', 2, 'Save As… Ok'],
    ]);
    expect(found[0]?.bounds).toEqual({ x: 80, y: 200, width: 21, height: 10 });
    expect(found[0]?.centre).toEqual({ x: 91, y: 205 });
  });

  it('words: several words in a row, their box around them all', () => {
    const [match, ...rest] = findInLines(lines, 'Save  as...', 'words');
    expect(rest).toEqual([]);
    expect(match?.text).toBe('Save As…');
    expect(match?.bounds).toEqual({ x: 10, y: 300, width: 61, height: 10 });
  });

  it('words: punctuation inside a word parts it, as a file name is read (an apostrophe does not)', () => {
    const files = [
      line(word('report2.txt', 10, 400), word('notes-final.md', 120, 400), word("don't", 240, 400)),
    ];
    expect(findInLines(files, 'report2', 'words').map((m) => m.text)).toEqual(['report2.txt']);
    expect(findInLines(files, 'report2.txt', 'words').map((m) => m.text)).toEqual(['report2.txt']);
    expect(findInLines(files, 'txt notes', 'words').map((m) => m.text)).toEqual([
      'report2.txt notes-final.md',
    ]);
    // Still whole parts: no part of a part, and no apostrophe's half.
    expect(findInLines(files, 'report', 'words')).toEqual([]);
    expect(findInLines(files, 'don', 'words')).toEqual([]);
    expect(findInLines(files, "don't", 'words').map((m) => m.text)).toEqual(["don't"]);
  });

  it('exact: a whole line; contains: any part of one, boxed by the words it touches', () => {
    expect(findInLines(lines, 'cancel ok.', 'exact').map((m) => m.text)).toEqual(['Cancel OK.']);
    expect(findInLines(lines, 'cancel', 'exact')).toEqual([]);
    expect(findInLines(lines, 'ok', 'contains').map((m) => m.text)).toEqual(['Look', 'OK.', 'Ok']);
    expect(findInLines(lines, 'ok her', 'contains').map((m) => m.text)).toEqual(['Look here']);
  });

  it('contains: words compared as the text is, whatever lower case or normalising does to their length', () => {
    const saved = [line(word('Save…', 10), word('as', 60))];
    expect(findInLines(saved, 'save...', 'contains').map((m) => m.text)).toEqual(['Save…']);
    // 'İ' lower-cases to two characters: the words after it were placed wrongly, matched as an empty run.
    const dotted = [line(word('İİİİ', 10), word('Open', 60))];
    expect(findInLines(dotted, 'open', 'contains').map((m) => [m.text, m.bounds.x])).toEqual([['Open', 60]]);
  });

  it('a text of spaces only matches nothing (not an empty run of words in every line)', () => {
    const lines = [line(word('Save', 10), word('as', 50))];
    for (const mode of ['words', 'exact', 'contains'] as const)
      expect(findInLines(lines, '  ', mode)).toEqual([]);
  });
});

describe('pickMatch', () => {
  const lines = [line(word('Open', 10, 10)), line(word('Open', 10, 40), word('Recent', 50, 40))];
  const matches = findInLines(lines, 'Open', 'words');
  const request = { text: 'Open', what: 'display "0"', lines };

  it('answers the only match, and the one occurrence names', () => {
    expect(pickMatch(matches.slice(0, 1), request).occurrence).toBe(1);
    expect(pickMatch(matches, { ...request, occurrence: 2 }).line).toBe('Open Recent');
  });

  it('refuses several matches without an occurrence, listing each candidate with its box and line', () => {
    const refused = (() => {
      try {
        pickMatch(matches, request);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(MacpilotError);
    const text = (refused as MacpilotError).render();
    expect(text).toContain('appears 2 times on display "0"');
    expect(text).toContain(`(screen points) ${dataNote()}:`);
    expect(text).toContain('1. "Open" x=10 y=10 28x10 in the line "Open"');
    expect(text).toContain('2. "Open" x=10 y=40 28x10 in the line "Open Recent"');
    expect(text).toContain('occurrence');
  });

  it('refuses no match with what was read, and an occurrence past the last', () => {
    expect(() => pickMatch([], { ...request, text: 'Close' })).toThrow(
      /No text "Close" on display "0"[\s\S]*"Open Recent"/,
    );
    expect(() => pickMatch([], { ...request, text: 'Close' })).toThrow(DATA_FENCE);
    expect(() => pickMatch(matches, { ...request, occurrence: 3 })).toThrow(
      /No occurrence 3 of "Open" on display "0": it appears 2 times/,
    );
  });
});
