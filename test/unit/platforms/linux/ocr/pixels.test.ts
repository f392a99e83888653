/** What the pixels say: light text on dark areas, where to cut an image in two, how tall a word's ink is. */
import { describe, expect, it } from 'vitest';
import { darkTextAreas, type GreyImage } from '../../../../../src/platforms/linux/ocr/dark-areas.js';
import {
  contentBox,
  doubtfulWordAreas,
  splitBands,
  tighten,
  typicalValue,
} from '../../../../../src/platforms/linux/ocr/pixels.js';

function image(width: number, height: number, background: number): GreyImage {
  return { width, height, data: new Uint8Array(width * height).fill(background) };
}

function fill(img: GreyImage, x: number, y: number, width: number, height: number, value: number) {
  for (let row = y; row < y + height; row++)
    img.data.fill(value, row * img.width + x, row * img.width + x + width);
}

/** Glyph-like strokes: vertical bars 2 px wide, 4 px apart, across `width`. */
function glyphs(img: GreyImage, x: number, y: number, width: number, height: number, value: number) {
  for (let at = x; at + 2 <= x + width; at += 6) fill(img, at, y, 2, height, value);
}

describe('darkTextAreas', () => {
  it('finds light text on a dark row (a selected row), row-shaped, with a margin', () => {
    const screen = image(320, 200, 235);
    fill(screen, 0, 80, 320, 24, 60);
    glyphs(screen, 40, 86, 100, 10, 250);
    const areas = darkTextAreas(screen);
    expect(areas).toHaveLength(1);
    const [area] = areas;
    expect(area!.x).toBeLessThanOrEqual(40);
    expect(area!.x + area!.width).toBeGreaterThanOrEqual(140);
    expect(area!.y).toBeLessThanOrEqual(86);
    expect(area!.y + area!.height).toBeGreaterThanOrEqual(96);
    expect(area!.height).toBeLessThanOrEqual(32);
  });

  it('joins the words of a dark row across the spaces between them', () => {
    const screen = image(320, 100, 235);
    fill(screen, 0, 40, 320, 24, 60);
    glyphs(screen, 40, 46, 40, 10, 250);
    glyphs(screen, 96, 46, 40, 10, 250);
    expect(darkTextAreas(screen)).toHaveLength(1);
  });

  it('leaves out dark text on light, an empty dark desktop, and a tall dark column', () => {
    const screen = image(320, 240, 0);
    fill(screen, 20, 20, 200, 40, 235);
    glyphs(screen, 30, 30, 120, 10, 20);
    fill(screen, 260, 0, 40, 240, 40);
    glyphs(screen, 270, 0, 20, 240, 250);
    expect(darkTextAreas(screen)).toEqual([]);
  });
});

describe('splitBands', () => {
  it('cuts through blank rows near the middle into two bands covering the image', () => {
    const page = image(200, 100, 240);
    glyphs(page, 10, 40, 150, 10, 20);
    glyphs(page, 10, 56, 150, 10, 20);
    const bands = splitBands(page);
    expect(bands).toHaveLength(2);
    const [top, bottom] = bands;
    expect(top!.y).toBe(0);
    expect(top!.height + bottom!.height).toBe(100);
    expect(bottom!.y).toBe(top!.height);
    // The cut does not go through a row of text.
    expect(bottom!.y <= 40 || (bottom!.y >= 50 && bottom!.y <= 56) || bottom!.y >= 66).toBe(true);
  });

  it('keeps the image whole when text fills the middle, rows of it two pixels apart', () => {
    const page = image(200, 100, 240);
    // Each row of text shifted from the one above, as words are.
    for (let y = 10; y < 90; y += 10) glyphs(page, (y / 10) % 2 === 0 ? 0 : 3, y, 190, 8, 20);
    expect(splitBands(page)).toEqual([{ x: 0, y: 0, width: 200, height: 100 }]);
  });

  it("cuts across a window's frame and a divider: long vertical lines are not text", () => {
    const page = image(200, 100, 240);
    fill(page, 5, 0, 1, 100, 20);
    fill(page, 100, 0, 1, 100, 20);
    glyphs(page, 10, 40, 80, 10, 20);
    glyphs(page, 10, 56, 80, 10, 20);
    expect(splitBands(page)).toHaveLength(2);
  });
});

describe('tighten', () => {
  it("fits a word's box to its ink, leaving out a neighbour's descenders at its top", () => {
    const page = image(100, 60, 240);
    fill(page, 10, 10, 30, 2, 20);
    glyphs(page, 10, 20, 30, 11, 20);
    expect(tighten({ x: 10, y: 8, width: 30, height: 30 }, page)).toEqual({
      x: 10,
      y: 20,
      width: 30,
      height: 11,
    });
  });

  it("keeps an i's dot, one blank row above its stem", () => {
    const page = image(40, 40, 240);
    fill(page, 10, 10, 2, 2, 20);
    fill(page, 10, 13, 2, 8, 20);
    expect(tighten({ x: 8, y: 5, width: 6, height: 20 }, page)).toEqual({
      x: 8,
      y: 10,
      width: 6,
      height: 11,
    });
  });

  it('keeps a box with no ink as it is', () => {
    const box = { x: 5, y: 5, width: 10, height: 10 };
    expect(tighten(box, image(40, 40, 240))).toEqual(box);
  });
});

describe('doubtfulWordAreas and typicalValue', () => {
  it('reads again, with room around them, the words read with little confidence, never beyond the image', () => {
    const page = image(200, 100, 240);
    const words = [
      { text: 'application.', bounds: { x: 100, y: 40, width: 86, height: 14 }, confidence: 0.1 },
      { text: 'Source', bounds: { x: 10, y: 40, width: 42, height: 9 }, confidence: 0.94 },
      { text: 'a', bounds: { x: 60, y: 40, width: 8, height: 4 }, confidence: 0.2 },
    ];
    expect(doubtfulWordAreas(words, page)).toEqual([{ x: 72, y: 33, width: 128, height: 28 }]);
  });

  it("takes a box's median pixel for its background", () => {
    const page = image(40, 40, 30);
    glyphs(page, 0, 0, 40, 10, 250);
    expect(typicalValue(page, { x: 0, y: 0, width: 40, height: 10 })).toBe(30);
  });
});

describe('contentBox', () => {
  it('cuts a flat margin off (a plain desktop around a window), keeping some room around what is there', () => {
    const screen = image(400, 300, 0);
    fill(screen, 100, 50, 200, 150, 235);
    glyphs(screen, 120, 70, 60, 10, 20);
    expect(contentBox(screen, { x: 0, y: 0, width: 400, height: 300 })).toEqual({
      x: 95,
      y: 46,
      width: 210,
      height: 158,
    });
  });

  it('answers nothing for a flat area, and stays inside the area it is given', () => {
    const screen = image(200, 100, 240);
    expect(contentBox(screen, { x: 0, y: 0, width: 200, height: 100 })).toBeUndefined();
    glyphs(screen, 0, 0, 200, 100, 20);
    expect(contentBox(screen, { x: 0, y: 50, width: 200, height: 50 })).toEqual({
      x: 0,
      y: 50,
      width: 200,
      height: 50,
    });
  });
});
