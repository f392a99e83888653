/**
 * Where light text sits on a dark or coloured background (a selected row, a title bar, a blue button): tesseract
 * misses such text on a whole screen and reads it once the area is cut out, grey-scaled and inverted. Found from
 * the pixels alone: cells mostly of darkish pixels that hold a few much lighter ones (glyphs), joined
 * into row-shaped areas.
 */
import type { Bounds } from '../../../helper-client/protocol.js';

/** A greyscale image: one byte per pixel, rows top to bottom. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

const CELL = 8;
/** A background darker than this (0-255) may hold light text. */
const DARK_BACKGROUND = 160;
/** A glyph pixel is at least this much lighter than the cell's background. */
const GLYPH_CONTRAST = 80;
/** Glyphs cover a small part of a cell: more light pixels than this share is a light area, not text on dark. */
const MAX_GLYPH_SHARE = 0.5;
/** Areas shaped like text rows: at most this tall, at least this wide, and wider than tall. */
const MAX_HEIGHT = 64;
const MIN_WIDTH = 24;
/** Margin added around an area, so that glyphs cut by the cell grid are read whole. */
const MARGIN = 4;
/** Dark cells without glyphs between two with glyphs, up to this many, join them: the space between words. */
const WORD_GAP_CELLS = 3;
const DARK = 1;
const GLYPHS = 2;

/** Each cell (CELL px square): DARK background, GLYPHS on a dark background, or 0. */
function glyphCells(image: GreyImage): { columns: number; rows: number; flags: Uint8Array } {
  const columns = Math.ceil(image.width / CELL);
  const rows = Math.ceil(image.height / CELL);
  const flags = new Uint8Array(columns * rows);
  const { width, data } = image;
  for (let row = 0; row < rows; row++) {
    const y0 = row * CELL;
    const y1 = Math.min(image.height, y0 + CELL);
    for (let column = 0; column < columns; column++) {
      const x0 = column * CELL;
      const x1 = Math.min(width, x0 + CELL);
      // The background: the dark pixels' mean, when they are most of the cell (glyphs cover less than half).
      let dark = 0;
      let sum = 0;
      for (let y = y0; y < y1; y++) {
        for (let i = y * width + x0, end = y * width + x1; i < end; i++) {
          const value = data[i] as number;
          if (value < DARK_BACKGROUND) {
            dark++;
            sum += value;
          }
        }
      }
      const count = (x1 - x0) * (y1 - y0);
      if (dark * 2 <= count) continue;
      const glyph = sum / dark + GLYPH_CONTRAST;
      let light = 0;
      for (let y = y0; y < y1; y++) {
        for (let i = y * width + x0, end = y * width + x1; i < end; i++)
          if ((data[i] as number) >= glyph) light++;
      }
      flags[row * columns + column] = light > 0 && light <= count * MAX_GLYPH_SHARE ? GLYPHS : DARK;
    }
  }
  joinWords(flags, columns, rows);
  return { columns, rows, flags };
}

/** Dark cells between glyph cells of a row, a word gap apart at most, become glyph cells. */
function joinWords(flags: Uint8Array, columns: number, rows: number): void {
  for (let row = 0; row < rows; row++) {
    let lastGlyph = -1;
    for (let column = 0; column < columns; column++) {
      const cell = row * columns + column;
      if (flags[cell] === GLYPHS) {
        const gap = column - lastGlyph - 1;
        if (lastGlyph >= 0 && gap > 0 && gap <= WORD_GAP_CELLS) flags.fill(GLYPHS, cell - gap, cell);
        lastGlyph = column;
      } else if (flags[cell] !== DARK) {
        lastGlyph = -1;
      }
    }
  }
}

/** Areas (image pixels) where light text on a dark background is likely, largest first. */
export function darkTextAreas(image: GreyImage): Bounds[] {
  const { columns, rows, flags } = glyphCells(image);
  const seen = new Uint8Array(flags.length);
  const areas: Bounds[] = [];
  for (let start = 0; start < flags.length; start++) {
    if (flags[start] !== GLYPHS || seen[start]) continue;
    // The cells joined to this one, horizontally and vertically (a flood fill).
    let left = columns;
    let right = 0;
    let top = rows;
    let bottom = 0;
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const cell = stack.pop() as number;
      const column = cell % columns;
      const row = (cell - column) / columns;
      left = Math.min(left, column);
      right = Math.max(right, column);
      top = Math.min(top, row);
      bottom = Math.max(bottom, row);
      const next = [
        column > 0 ? cell - 1 : -1,
        column < columns - 1 ? cell + 1 : -1,
        row > 0 ? cell - columns : -1,
        row < rows - 1 ? cell + columns : -1,
      ];
      for (const n of next) {
        if (n >= 0 && flags[n] === GLYPHS && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    const x = Math.max(0, left * CELL - MARGIN);
    const y = Math.max(0, top * CELL - MARGIN);
    const width = Math.min(image.width, (right + 1) * CELL + MARGIN) - x;
    const height = Math.min(image.height, (bottom + 1) * CELL + MARGIN) - y;
    if (height <= MAX_HEIGHT && width >= MIN_WIDTH && width > height) areas.push({ x, y, width, height });
  }
  return areas.sort((a, b) => b.width * b.height - a.width * a.height);
}
