/**
 * What the pixels of a greyscale image say about its text, for the tesseract pipeline: where it can be cut in
 * two without cutting a line of text, and how tall a word really is (tesseract's word boxes sometimes take in a
 * neighbouring row's descenders or a tab's underline).
 */
import type { Bounds, RecognizedWord } from '../../../helper-client/protocol.js';
import type { GreyImage } from './dark-areas.js';

/** A step between neighbouring pixels larger than this is an edge (a glyph's, a frame's). */
const EDGE = 40;
/** A row with at most this many edges holds no text. */
const BLANK_ROW_EDGES = 2;
/** An edge also found this many rows above and below is a long vertical line's, not a glyph's. */
const LINE_REACH = 10;
/** Blank rows in a row needed to cut there. */
const BLANK_RUN = 3;
/** How far from the middle (a share of the height) a cut may be. */
const CUT_REACH = 0.25;
/** A pixel this much lighter or darker than the box's typical pixel is ink. */
const INK = 60;

const edgeAt = (image: GreyImage, x: number, y: number): boolean =>
  Math.abs((image.data[y * image.width + x] as number) - (image.data[y * image.width + x - 1] as number)) >
  EDGE;

/** Edges in a row, leaving out those of long vertical lines (a window's frame, a divider, a scroll bar). */
function edgesInRow(image: GreyImage, y: number): number {
  const above = y - LINE_REACH;
  const below = y + LINE_REACH;
  let edges = 0;
  for (let x = 1; x < image.width; x++) {
    if (!edgeAt(image, x, y)) continue;
    const vertical = above >= 0 && below < image.height && edgeAt(image, x, above) && edgeAt(image, x, below);
    if (!vertical) edges++;
  }
  return edges;
}

/**
 * The image as two bands, top and bottom, cut through blank rows near the middle, so that two workers read half
 * each; the whole image when no blank rows are near the middle.
 */
export function splitBands(image: GreyImage): Bounds[] {
  const middle = Math.floor(image.height / 2);
  const reach = Math.floor(image.height * CUT_REACH);
  const blank = (y: number) => edgesInRow(image, y) <= BLANK_ROW_EDGES;
  for (let offset = 0; offset <= reach; offset++) {
    for (const y of [middle - offset, middle + offset]) {
      if (y < BLANK_RUN || y + BLANK_RUN >= image.height) continue;
      let run = 0;
      while (run < BLANK_RUN && blank(y + run)) run++;
      if (run < BLANK_RUN) continue;
      const cut = y + 1;
      return [
        { x: 0, y: 0, width: image.width, height: cut },
        { x: 0, y: cut, width: image.width, height: image.height - cut },
      ];
    }
  }
  return [{ x: 0, y: 0, width: image.width, height: image.height }];
}

/** Room kept around the edges found, so that no glyph is cut. */
const CONTENT_MARGIN = 4;

/**
 * The part of an area that holds anything but flat colour (the box around its edges, with a margin), or
 * undefined when it is flat: a desktop's plain background need not be read.
 */
export function contentBox(image: GreyImage, area: Bounds): Bounds | undefined {
  let left = Number.POSITIVE_INFINITY;
  let right = -1;
  let top = -1;
  let bottom = -1;
  for (let y = area.y; y < area.y + area.height; y++) {
    let first = -1;
    let last = -1;
    for (let x = Math.max(1, area.x); x < area.x + area.width; x++) {
      if (edgeAt(image, x, y)) {
        if (first < 0) first = x;
        last = x;
      }
    }
    if (first < 0) continue;
    if (top < 0) top = y;
    bottom = y;
    left = Math.min(left, first - 1);
    right = Math.max(right, last);
  }
  if (top < 0) return undefined;
  const x = Math.max(area.x, left - CONTENT_MARGIN);
  const y = Math.max(area.y, top - CONTENT_MARGIN);
  const x1 = Math.min(area.x + area.width, right + 1 + CONTENT_MARGIN);
  const y1 = Math.min(area.y + area.height, bottom + 1 + CONTENT_MARGIN);
  return { x, y, width: x1 - x, height: y1 - y };
}

/** The box cut down to the band of rows that holds the most ink: the word itself, not what touches it. */
export function tighten(box: Bounds, image: GreyImage): Bounds {
  const x0 = Math.max(0, Math.floor(box.x));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width));
  const y0 = Math.max(0, Math.floor(box.y));
  const y1 = Math.min(image.height, Math.ceil(box.y + box.height));
  if (x1 <= x0 || y1 <= y0) return box;
  const typical = typicalValue(image, { x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
  const inkInRow = (y: number) => {
    let ink = 0;
    for (let x = x0; x < x1; x++) {
      if (Math.abs((image.data[y * image.width + x] as number) - typical) > INK) ink++;
    }
    return ink;
  };
  // Bands of inked rows (two blank rows end a band: one may part an i's dot from its stem), the one with the most ink.
  let best = { top: y0, bottom: y1, ink: -1 };
  let band = { top: -1, bottom: -1, ink: 0 };
  const close = () => {
    if (band.top >= 0 && band.ink > best.ink) best = { top: band.top, bottom: band.bottom, ink: band.ink };
    band = { top: -1, bottom: -1, ink: 0 };
  };
  for (let y = y0; y < y1; y++) {
    const ink = inkInRow(y);
    if (ink > 0) {
      if (band.top < 0) band.top = y;
      band.bottom = y + 1;
      band.ink += ink;
    } else if (band.top >= 0 && y - band.bottom >= 1) {
      close();
    }
  }
  close();
  if (best.ink <= 0) return box;
  return { x: box.x, y: best.top, width: box.width, height: best.bottom - best.top };
}

/** The median pixel of a box (whole pixels, inside the image): its background, where text covers less than half. */
export function typicalValue(image: GreyImage, box: Bounds): number {
  const histogram = new Uint32Array(256);
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++)
      histogram[image.data[y * image.width + x] as number]! += 1;
  }
  const half = (box.width * box.height) / 2;
  let seen = 0;
  let median = 0;
  while (median < 255 && seen + (histogram[median] as number) <= half) seen += histogram[median++] as number;
  return median;
}

/** Words read with less confidence than this are read again, cut out with some room around them. */
const DOUBTFUL_WORD = 0.6;
/** Shorter "words" read unsure are mostly icons taken for letters ("a", "Ey"): not worth a second reading. */
const DOUBTFUL_LENGTH = 4;

/**
 * Areas around the words read with little confidence (a word cut short, "application." for "application.ui"):
 * half a line above and below, two line heights either side, inside the image.
 */
export function doubtfulWordAreas(words: readonly RecognizedWord[], image: GreyImage): Bounds[] {
  return words
    .filter((word) => word.confidence < DOUBTFUL_WORD && word.text.length >= DOUBTFUL_LENGTH)
    .map(({ bounds: b }) => {
      const x = Math.max(0, Math.floor(b.x - 2 * b.height));
      const y = Math.max(0, Math.floor(b.y - b.height / 2));
      const right = Math.min(image.width, Math.ceil(b.x + b.width + 2 * b.height));
      const bottom = Math.min(image.height, Math.ceil(b.y + 1.5 * b.height));
      return { x, y, width: right - x, height: bottom - y };
    })
    .filter((area) => area.width > 0 && area.height > 0);
}
