/** scroll_to_element on gtk3-demo's demo list (GTK3 has no scroll-into-view call: the wheel does it). */
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { refOf } from '../support/text.js';

const { macpilot, start } = useMacpilot(inject('desktopEnv'));
let app: string;

beforeAll(async () => {
  app = String(await start('gtk3-demo', '"Builder"'));
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boundsOf(ref: string): Promise<Box> {
  const m = /bounds: x=(-?[\d.]+) y=(-?[\d.]+) width=([\d.]+) height=([\d.]+)/.exec(
    await macpilot.ok('get_element', { ref }),
  );
  const [x, y, width, height] = (m ?? []).slice(1).map(Number) as [number, number, number, number];
  return { x, y, width, height };
}

/** GTK3 leaves tree rows "showing" when they scroll away: whether a row is in view is told by its bounds. */
const within = (row: Box, window: Box) => row.y >= window.y && row.y + row.height <= window.y + window.height;

test('a row below the fold comes into view, then one above it', async () => {
  const window = await boundsOf(
    refOf(await macpilot.ok('snapshot_ui', { app, depth: 2 }), /window "Application Class"/),
  );
  const below = refOf(
    await macpilot.ok('find_elements', { app, name: 'Tree View', match: 'exact', include_hidden: true }),
    /"Tree View"/,
  );
  expect(within(await boundsOf(below), window)).toBe(false);
  const down = await macpilot.ok('scroll_to_element', { ref: below });
  expect(down).toMatch(/Scrolled down .* came into view/);
  expect(down).toMatch(/~ scrollbar .*value=\d+/);
  expect(within(await boundsOf(below), window)).toBe(true);

  const above = refOf(
    await macpilot.ok('find_elements', { app, name: 'Builder', match: 'exact', include_hidden: true }),
    /"Builder"/,
  );
  expect(within(await boundsOf(above), window)).toBe(false);
  expect(await macpilot.ok('scroll_to_element', { ref: above })).toMatch(/Scrolled up .* came into view/);
  expect(within(await boundsOf(above), window)).toBe(true);
  expect(await macpilot.ok('scroll_to_element', { ref: above })).toContain('is already in view');
});
