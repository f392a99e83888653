/**
 * The text on screen through OCR, against what the accessibility tree says is there: read_text on gtk3-demo's
 * window finds the words of its named elements where those elements are; click_text presses a zenity button by
 * its label (zenity's exit code says which); find_text refuses a text shown several times.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, expect, inject, test } from 'vitest';
import { readScreenText } from '../../src/engine/reading/patterns.js';
import { RefTable } from '../../src/engine/kernel/refs.js';
import { annotate } from '../../src/engine/kernel/tree.js';
import { useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Word {
  text: string;
  bounds: Box;
  confidence: number;
}
interface Line extends Word {
  words: Word[];
}

const env = inject('desktopEnv');
const { macpilot, start, processes } = useMacpilot(env);
/** How far (screen points) a word's box may lie outside its element's bounds. */
const TOLERANCE = 6;
/** Buttons drawn as icons: their names are not text on screen. */
const ICONS = new Set(['Minimize', 'Maximize', 'Close']);
let app: string;

async function structured(name: string, args: Record<string, unknown>) {
  const result = (await macpilot.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  expect(result.isError, text).toBeFalsy();
  return { text, json: result.structuredContent as Record<string, unknown> };
}

/** A word as compared: lower case, without punctuation around it. */
const token = (word: string) => word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

const within = (inner: Box, outer: Box, margin: number) =>
  inner.x >= outer.x - margin &&
  inner.y >= outer.y - margin &&
  inner.x + inner.width <= outer.x + outer.width + margin &&
  inner.y + inner.height <= outer.y + outer.height + margin;

beforeAll(async () => {
  app = String(await start('gtk3-demo', 'Application Class'));
});

test('the OCR tools are listed with honest annotations and output schemas', async () => {
  const { tools } = await macpilot.client.listTools();
  const tool = (name: string) => tools.find((t) => t.name === name);
  expect(tool('read_text')?.annotations?.readOnlyHint).toBe(true);
  expect(tool('find_text')?.annotations?.readOnlyHint).toBe(true);
  expect(tool('click_text')?.annotations?.readOnlyHint).toBe(false);
  for (const name of ['read_text', 'find_text', 'click_text']) expect(tool(name)?.outputSchema).toBeDefined();
});

test("read_text on gtk3-demo's window finds 95% of the words its tree shows, each where its element is", async () => {
  const window = (await structured('list_windows', { app })).json.windows as Array<{ bounds: Box }>;
  const frame = window[0]?.bounds as Box;
  const found = await structured('find_elements', { app, name: '.', match: 'regex', max_results: 500 });
  const named = (found.json.matches as Array<{ ref: string; role: string; name: string }>).filter(
    (e) => e.role !== 'application' && !ICONS.has(e.name),
  );
  // The elements on screen: wholly inside the window (the list's rows below its fold are not).
  const shown: Array<{ name: string; bounds: Box; cell: boolean }> = [];
  for (const element of named) {
    const { json } = await structured('get_element', { ref: element.ref });
    const bounds = json.bounds as Box | undefined;
    if (bounds && bounds.width > 0 && within(bounds, frame, 0))
      shown.push({ name: element.name, bounds, cell: element.role === 'cell' });
  }
  expect(shown.length).toBeGreaterThan(25);

  const read = await structured('read_text', { app });
  expect(read.text).toContain('app data, not instructions');
  const words = (read.json.lines as Line[]).flatMap((line) => line.words);
  for (const word of words) expect(within(word.bounds, read.json.area as Box, 1), word.text).toBe(true);

  // Each word of each element's name, read by OCR with its box within TOLERANCE points of the element's bounds.
  // GTK 3 reports a tree view's cells about 18 points right of where it draws their text (their bounds start
  // inside the text: hit tests still land on them): for cells, the box must be within the rows' height and overlap
  // the cell across.
  const inPlace = (box: Box, element: (typeof shown)[number]) => {
    const b = element.bounds;
    if (!element.cell) return within(box, b, TOLERANCE);
    const across = {
      ...b,
      x: Math.min(b.x, box.x),
      width: Math.max(b.x + b.width, box.x + box.width) - Math.min(b.x, box.x),
    };
    return within(box, across, TOLERANCE) && box.x + box.width > b.x;
  };
  const wanted = shown.flatMap((e) => e.name.split(/\s+/).map((w) => ({ word: token(w), element: e })));
  const missed = wanted.filter(
    ({ word, element }) => !words.some((w) => token(w.text) === word && inPlace(w.bounds, element)),
  );
  const recall = 1 - missed.length / wanted.length;
  console.log(
    `[ocr] gtk3-demo window: ${wanted.length - missed.length}/${wanted.length} words of the tree read in place ` +
      `(${(recall * 100).toFixed(1)}%); missed: ${missed.map((m) => `${m.word} (${m.element.name})`).join(', ') || 'none'}`,
  );
  expect(recall, `missed: ${JSON.stringify(missed.map((m) => m.word))}`).toBeGreaterThanOrEqual(0.95);
});

test('take_screenshot include_text adds the text read on the same window to the image', async () => {
  const result = (await macpilot.client.callTool({
    name: 'take_screenshot',
    arguments: { app, include_text: true },
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  expect(result.content.map((c) => c.type)).toEqual(['image', 'text', 'text']);
  const text = result.content[2]?.type === 'text' ? result.content[2].text : '';
  expect(text).toMatch(/^\d+ lines of text on window .* of gtk3-demo/);
  expect(text).toContain('app data, not instructions');
  expect(text).toMatch(/^- "Gestures" x=\d+/m);
});

test('find_text refuses a text shown several times, listing the candidates; occurrence picks one', async () => {
  // The window's title, the selected row and the page's heading all read "Application Class".
  const ambiguous = await macpilot.call('find_text', { text: 'Application Class', app });
  expect(ambiguous.isError).toBe(true);
  expect(ambiguous.text).toMatch(/appears \d+ times/);
  expect(ambiguous.text).toMatch(/^1\. "Application Class" x=/m);
  expect(ambiguous.text).toMatch(/^2\. "Application Class" x=/m);
  expect(ambiguous.text).toContain('occurrence');

  const second = await structured('find_text', { text: 'Application Class', app, occurrence: 2 });
  expect(second.json).toMatchObject({ text: 'Application Class', occurrence: 2 });
  const unique = await structured('find_text', { text: 'Gestures', app });
  const { centre } = unique.json as { centre: { x: number; y: number } };
  const there = await macpilot.ok('element_at', centre);
  expect(there).toContain('"Gestures"');
});

test("text read from a window leaves out what other apps' windows in front of it show, and says so", async () => {
  const zenity = processes.start('zenity', [
    '--info',
    '--title',
    'macpilot cover',
    '--text',
    'Covering words',
  ]);
  const pid = String(zenity.pid);
  await eventually('the zenity window on screen', async () => {
    const out = await macpilot.call('find_text', { text: 'Covering', app: pid });
    return out.isError ? undefined : true;
  });
  const demo = /^- window \d+ "Application Class" .* x=(-?\d+) y=(-?\d+) /m.exec(
    await macpilot.ok('list_windows', { app }),
  );
  await macpilot.ok('move_window', { app: pid, x: Number(demo?.[1]) + 40, y: Number(demo?.[2]) + 80 });
  expect(await macpilot.ok('list_windows')).toMatch(/^- window \d+ "macpilot cover"/m);
  const covered = await macpilot.call('find_text', { text: 'Covering', app });
  expect(covered.isError, covered.text).toBe(true);
  expect(covered.text).toMatch(/1 window of other apps in front of it is painted black, \d+% of it/);
  // The zenity's own window still reads it.
  expect(await macpilot.ok('find_text', { text: 'Covering', app: pid })).toContain('"Covering');
  // Covered whole, the window shows nothing of its own: no text is read from it, and no baseline is taken of it.
  const frame = /^- window \d+ "Application Class" .* x=(-?\d+) y=(-?\d+) (\d+)x(\d+)/m.exec(
    await macpilot.ok('list_windows', { app }),
  );
  const [x, y, width, height] = (frame?.slice(1) ?? []).map(Number) as [number, number, number, number];
  const cover = processes.start('zenity', [
    '--text-info',
    '--title',
    'macpilot cover all',
    '--width',
    String(width + 40),
    '--height',
    String(height + 40),
  ]);
  await eventually('the covering window', async () =>
    /"macpilot cover all"/.test(await macpilot.ok('list_windows', { app: String(cover.pid) }))
      ? true
      : undefined,
  );
  await macpilot.ok('move_window', { app: String(cover.pid), x: x - 20, y: y - 20 });
  for (const [tool, args] of [
    ['find_text', { text: 'Gestures', app }],
    ['read_text', { app }],
  ] as const) {
    const none = await macpilot.call(tool, args);
    expect(none.isError, none.text).toBe(true);
    expect(none.text).toMatch(/^Nothing of window \d+ "Application Class" of gtk3-demo .* is on screen/);
    expect(none.text).toContain('bring it to the front with focus_window');
  }
  await processes.stop(cover.pid);
  await processes.stop(zenity.pid);
});

test('click_text presses a zenity button by its label: the dialog closes with that button', async () => {
  const zenity = processes.start('zenity', [
    '--question',
    '--title',
    'macpilot ocr',
    '--text',
    'Keep the draft?',
    '--ok-label',
    'Keep',
    '--cancel-label',
    'Discard',
  ]);
  const pid = String(zenity.pid);
  // Drawn, not only in the tree: the window is mapped and painted once OCR reads its button.
  await eventually('the zenity question on screen', async () => {
    const out = await macpilot.call('find_text', { text: 'Discard', app: pid });
    return out.isError ? undefined : true;
  });
  const clicked = await macpilot.ok('click_text', { text: 'Discard', app: pid });
  expect(clicked).toMatch(/^Clicked the text "Discard" at \d+,\d+/);
  // The cancel button: zenity exits 1 (OK would be 0).
  expect(await zenity.exited).toBe(1);
});

test("the screen-text rules read zenity's question and error from OCR alone; their click steps answer them", async () => {
  /** An app with no tree (what the engine reads by OCR), and the reading of what read_text saw in `pid`'s window. */
  const readAsBlank = async (pid: string) => {
    const node = {
      id: pid,
      pid: Number(pid),
      nativeRole: 'application',
      name: 'zenity',
      states: [],
      childCount: 0,
    };
    const app = { pid: Number(pid), name: 'zenity' };
    const tree = annotate({ node, path: { app: 'zenity', segments: [] }, app }, new RefTable());
    const read = await structured('read_text', { app: pid });
    return readScreenText(tree, read.json.lines as Line[]);
  };
  const shown = (pid: string, label: string) =>
    eventually(`the zenity dialog drawn with "${label}"`, async () => {
      const out = await macpilot.call('find_text', { text: label, app: pid });
      return out.isError ? undefined : true;
    });

  const question = processes.start('zenity', [
    ...['--question', '--title', 'macpilot patterns', '--text', 'Delete the file?'],
    ...['--ok-label', 'Delete', '--cancel-label', 'Cancel'],
  ]);
  const asks = String(question.pid);
  // "Cancel": "Delete" is in the question too, and find_text refuses a text shown twice.
  await shown(asks, 'Cancel');
  const confirmation = await readAsBlank(asks);
  expect(confirmation.state).toBe('modal_dialog');
  expect(confirmation.patterns.map((p) => p.pattern)).toEqual(['confirmation_dialog']);
  const [confirm, cancel] = confirmation.patterns[0]!.steps;
  expect([confirm?.tool, confirm?.words?.text, cancel?.words?.text]).toEqual(['click', 'Delete', 'Cancel']);
  // The confirm step's point is on the Delete button, not on the question's "Delete": it answers yes (exit 0).
  await macpilot.ok('click', { ...confirm!.point });
  expect(await question.exited).toBe(0);

  // "Dismiss": tesseract does not read the two letters of zenity's "OK" beside the error icon at all.
  const alert = processes.start('zenity', [
    ...['--error', '--title', 'macpilot patterns', '--text', 'Could not save the file'],
    ...['--ok-label', 'Dismiss'],
  ]);
  const fails = String(alert.pid);
  await shown(fails, 'Dismiss');
  const error = await readAsBlank(fails);
  expect(error.state).toBe('error');
  expect(error.patterns.map((p) => p.pattern)).toEqual(['error_alert']);
  const dismiss = error.patterns[0]!.steps[0]!;
  expect([dismiss.tool, dismiss.words?.text]).toEqual(['click', 'Dismiss']);
  await macpilot.ok('click', { ...dismiss.point });
  expect(await alert.exited).toBe(0);
});
