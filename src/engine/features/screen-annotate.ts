/**
 * Refs drawn on a screenshot: which elements of a walked app get a box and an "e12" label, and the SVG overlay
 * that draws them in image pixels.
 */
import type { Bounds } from '../../helper-client/protocol.js';
import type { Walked } from '../kernel/tree.js';
import { INTERACTIVE_ROLES, FRAME_ROLES } from '../kernel/roles.js';

/** More labels than this make the image unreadable; interactive elements are drawn first. */
export const MAX_LABELS = 150;
const COLOURS = ['#d7263d', '#1b998b', '#2e86ab', '#f46036', '#7b2cbf', '#c5283d', '#3a86ff', '#2a9d8f'];
const FONT_PX = 12;
const LABEL_HEIGHT = 15;
/** Width of one label character at FONT_PX bold, generously. */
const CHAR_PX = 8;

export interface Labelled {
  node: Walked;
  bounds: Bounds;
}

function overlap(a: Bounds, b: Bounds): Bounds | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right - x >= 2 && bottom - y >= 2 ? { x, y, width: right - x, height: bottom - y } : undefined;
}

/**
 * The visible, named or interactive elements of a walk that lie in `area` (screen points), interactive ones
 * first, at most MAX_LABELS; `total` counts all that qualified. A label inside a control that repeats its name
 * (the text "7" on the key "7") is left out: its tag would cover the control's own.
 */
export function labelled(tree: Walked, area: Bounds): { shown: Labelled[]; total: number } {
  const found: Labelled[] = [];
  const visit = (node: Walked, control: string | undefined) => {
    const { bounds } = node.info;
    const interactive = INTERACTIVE_ROLES.has(node.role);
    const name = node.info.name.trim();
    const qualifies = interactive || (name !== '' && name !== control);
    const visible = bounds && overlap(bounds, area);
    if (node.depth > 0 && visible && !FRAME_ROLES.has(node.role) && qualifies)
      found.push({ node, bounds: visible });
    for (const child of node.children) visit(child, interactive ? name : control);
  };
  visit(tree, undefined);
  const ranked = [
    ...found.filter((l) => INTERACTIVE_ROLES.has(l.node.role)),
    ...found.filter((l) => !INTERACTIVE_ROLES.has(l.node.role)),
  ];
  return { shown: ranked.slice(0, MAX_LABELS), total: found.length };
}

/** An SVG of the image's size with a box and a ref label per element, mapped from screen points to pixels. */
export function overlay(
  labels: readonly Labelled[],
  image: { width: number; height: number },
  area: Bounds,
  scale: number,
): string {
  const px = (v: number) => Math.round(v * 10) / 10;
  const shapes = labels.map(({ node, bounds }, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const x = px((bounds.x - area.x) * scale);
    const y = px((bounds.y - area.y) * scale);
    const width = px(bounds.width * scale);
    const height = px(bounds.height * scale);
    const tagWidth = node.ref.length * CHAR_PX + 4;
    // Above the box when there is room, else inside its top-left corner.
    const tagY = y >= LABEL_HEIGHT ? y - LABEL_HEIGHT : y;
    return (
      `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="none" stroke="${colour}" stroke-width="2"/>` +
      `<rect x="${x}" y="${tagY}" width="${tagWidth}" height="${LABEL_HEIGHT}" fill="${colour}"/>` +
      `<text x="${x + 2}" y="${tagY + LABEL_HEIGHT - 3}">${node.ref}</text>`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">` +
    `<g font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="${FONT_PX}" font-weight="bold" fill="#ffffff">` +
    `${shapes.join('')}</g></svg>`
  );
}
