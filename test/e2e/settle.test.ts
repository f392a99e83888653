/**
 * An answer comes after the app has settled: in mousepad's Save As dialog, set_value on the name field and an
 * Enter sent right after it save the file, every time (GTK enables the dialog's Save button a moment after the
 * name changes; an Enter before that does nothing). 8 runs each time (SETTLE_RUNS=N runs more), which CI's time
 * allows: every full run adds 8 more to the hundreds that passed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';

const { macpilot, start } = useMacpilot(inject('desktopEnv'));
const folder = mkdtempSync(join(tmpdir(), 'macpilot-settle-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const RUNS = Number(process.env.SETTLE_RUNS ?? 8);

const focusedRef = async () => {
  const out = await macpilot.ok('get_focused_element', { app: 'mousepad' });
  const ref = /\[ref=(e\d+)\]/.exec(out)?.[1];
  expect(ref, out).toBeDefined();
  return ref as string;
};

test(`set_value on the Save As name field, then Enter at once, saves the file (${RUNS} runs)`, async () => {
  await start('mousepad', 'menu "File"');
  const saved: string[] = [];
  const took: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const text = `run ${run} of ${RUNS}`;
    // A new, untitled document each run: its Save As starts from "Untitled", the case GTK checks slowly.
    if (run > 0) await macpilot.ok('press_key', { key: 'n', modifiers: ['ctrl'] });
    await macpilot.ok('set_value', { ref: await focusedRef(), value: text });
    await macpilot.ok('click_menu_item', { app: 'mousepad', path: 'File > Save As…' });
    const name = await focusedRef();
    const file = join(folder, `settled ${run}.txt`);
    const started = performance.now();
    await macpilot.ok('set_value', { ref: name, value: file });
    took.push(performance.now() - started);
    const setAnswer = await macpilot.ok('get_element', { ref: name });
    const enter = await macpilot.ok('press_key', { key: 'enter' });
    if (process.env.SETTLE_DEBUG) console.log(setAnswer, '\n---\n', enter);
    // The file appears before mousepad has written its text (seen empty once in a full run): wait for both.
    await eventually(
      `the file of run ${run}`,
      async () => (existsSync(file) && readFileSync(file, 'utf8') !== '' ? true : undefined),
      5_000,
    ).catch(() => undefined);
    if (existsSync(file)) {
      expect(readFileSync(file, 'utf8')).toBe(text);
      saved.push(file);
    } else {
      await macpilot.ok('press_key', { key: 'escape' }); // close the dialog left open
    }
  }
  const median = [...took].sort((a, b) => a - b)[Math.floor(took.length / 2)] ?? 0;
  console.log(
    `settle: ${saved.length} of ${RUNS} saved; set_value on a fresh name field, median ${Math.round(median)} ms`,
  );
  expect(saved.length, `${saved.length} of ${RUNS} saved`).toBe(RUNS);
}, 180_000);
