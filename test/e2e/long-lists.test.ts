/**
 * Trees of any size: a zenity list of 10,000 rows and a web page of 10,000 list items. A snapshot reads the rows
 * on screen and says how many it left off screen and how to reach them; a search finds a row far down by its
 * name; the row scrolled to is then on screen, and a snapshot of the list shows it. A page whose items change
 * while it is walked, and one whose renderer dies, are answered with what was read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { startChromium } from '../support/chromium.js';
import { webPage } from '../support/web-page.js';
import { useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const ROWS = Array.from({ length: 10_000 }, (_, i) => String(i + 1));

describe('a zenity list of 10,000 rows', () => {
  const { macpilot, processes } = useMacpilot(env);

  test('the snapshot reads the rows on screen and says how to reach the other 9,99x; find reaches row 9876, scroll_to_element brings it on screen', async () => {
    const zenity = processes.start('zenity', ['--list', '--column', 'n', '--height', '300', ...ROWS]);
    const app = String(zenity.pid);
    const tree = await eventually('the list', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && out.text.includes('cell "1"') ? out.text : undefined;
    });
    // A screenful of rows, never thousands: the answer stays small.
    const cells = tree.match(/- cell "\d+"/g) ?? [];
    expect(cells.length).toBeGreaterThan(2);
    expect(cells.length).toBeLessThan(60);
    expect(tree.length).toBeLessThan(8_000);
    expect(tree).toMatch(/- columnheader "n" \[ref=e\d+\]/);
    const table = refOf(tree, /- table \[ref=e\d+\]/);
    const offScreen = new RegExp(
      `\\[off screen: (\\d+) more children of ${table} \\(10001 in all; those shown start at #2\\), not read\\. To reach them: find_elements within=${table}`,
    );
    expect(Number(offScreen.exec(tree)?.[1])).toBe(10_001 - cells.length - 1);

    const found = await macpilot.ok('find_elements', {
      app,
      text: '9876',
      match: 'exact',
      include_hidden: true,
    });
    expect(found).toMatch(/^1 match in .*searched (\d{5}) elements/);
    const row = refOf(found, /- cell "9876"/);
    // Rows far down are named by path too, and the path given back names the row.
    const far = await macpilot.ok('get_element', { path: `app(${zenity.pid})/dialog/table/cell["7777"]` });
    expect(far).toContain('cell["7777"]');
    expect(await macpilot.ok('get_element', { ref: row })).toContain('/dialog/table/cell["9876"]');
    await macpilot.ok('scroll_to_element', { ref: row });
    // On screen now: the list's snapshot shows that row among those it reads.
    const scrolled = await macpilot.ok('snapshot_ui', { ref: table });
    expect(scrolled).toMatch(/- cell "9876" \[ref=e\d+\]/);
    expect(scrolled).not.toContain('cell "1"');
    expect(scrolled).toMatch(/those shown start at #9\d{3}\)/);
    await processes.stop(zenity.pid);
  });
});

describe('a web page of 10,000 list items', () => {
  const { macpilot, processes } = useMacpilot(env);
  const folder = temporaryFolder('macpilot-long-page-');
  afterAll(() => processes.stopAll());

  test('the snapshot reads the items on screen and says how many it left', async () => {
    const browser = startChromium(processes, join(folder, 'profile'), webPage('rows.html'));
    const app = String(browser.pid);
    const tree = await eventually('the page', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && out.text.includes('Row 1"') ? out.text : undefined;
    });
    const items = tree.match(/- listitem/g) ?? [];
    expect(items.length).toBeGreaterThan(5);
    expect(items.length).toBeLessThan(100);
    expect(tree.length).toBeLessThan(20_000);
    expect(tree).toMatch(
      /\[off screen: \d{4} more children of e\d+ \(10000 in all; those shown start at #1\)/,
    );
    // The items carry no names (their text is in a child): the answer promises no fast search by name.
    expect(tree).toContain('their text is in their children, so each is read');
    const found = await macpilot.ok('find_elements', { app, text: 'Row 9876', include_hidden: true });
    expect(found).toMatch(/^1 match in /);
    expect(found).toMatch(/- text "Row 9876" \[ref=e\d+\] offscreen/);
    // Its row has no name, and its place among 10,000 is not what the search read: the path it is given names
    // the row by the text it holds, and that path is one the next call takes, to the same element.
    const ref = /\[ref=(e\d+)\]/.exec(found)?.[1];
    const path = /^path: (.+)$/m.exec(await macpilot.ok('get_element', { ref }))?.[1] ?? '';
    expect(path).toMatch(/\/list\/listitem\/text\["Row 9876"\]$/);
    const again = await macpilot.ok('get_element', { path });
    expect(again).toContain(`ref: ${ref}\n`);
    expect(again).toContain('name: "Row 9876"');
    // Scrolled to, the row is among those a snapshot reads on screen, far past the list's first: the path the
    // snapshot gives it is one the next call takes, to the same element (not the row at its place among those read).
    await macpilot.ok('scroll_to_element', { ref });
    const shown = await macpilot.ok('snapshot_ui', { app });
    expect(shown).toMatch(/those shown start at #9\d{3}\)/);
    expect(shown).toContain(`text "Row 9876" [ref=${ref}]`);
    // The same path as the search gave, which the call above took back to this element.
    expect(/^path: (.+)$/m.exec(await macpilot.ok('get_element', { ref }))?.[1]).toBe(path);
    await processes.stop(browser.pid);
  });

  test('its renderer killed while the page is walked: the walk answers, and the next calls work', async () => {
    const browser = startChromium(processes, join(folder, 'profile-crash'), webPage('rows.html'));
    const app = String(browser.pid);
    await eventually('the page', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && out.text.includes('Row 1"') ? true : undefined;
    });
    const renderers = renderersOf(browser.pid);
    expect(renderers.length).toBeGreaterThan(0);
    // Every row, off screen too, in one walk of 5,000 elements: answered, the app never left waiting past
    // its time limit (sent all at once, the calls of such a walk were: "busy: it left a call unanswered").
    const full = await macpilot.call('snapshot_ui', { app, include_hidden: true, max_nodes: 5000 });
    expect(full.isError, full.text).toBe(false);
    expect(full.text).toMatch(/- text "Row 200" \[ref=e\d+\] offscreen/);
    expect(full.text).toMatch(/beyond (max_nodes=5000|the size cap of 40,000 characters)/);
    // The same walk again, under way when the renderers die.
    const walk = macpilot.call('snapshot_ui', { app, include_hidden: true, max_nodes: 5000 });
    await sleep(150);
    for (const pid of renderers) process.kill(pid, 'SIGKILL');
    const walked = await walk;
    // Answered in macpilot's words, whatever was read before the page went: never a bug, never a hang.
    expect(walked.text).not.toMatch(/failed unexpectedly|bug in macpilot/);
    expect(walked.text).toMatch(/^"Chromium" \(pid \d+\)|Not done|gone/);
    // The browser runs on, its window read again; the page's rows are gone with its renderer.
    expect(await macpilot.ok('list_apps')).toContain(`Chromium (pid ${app})`);
    const after = await eventually('the window without its page', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && !out.text.includes('Row 1"') ? out.text : undefined;
    });
    expect(after).toMatch(/- window "[^"]*" \[ref=e\d+\]/);
    await processes.stop(browser.pid);
  });
});

describe('a web page that changes while it is walked', () => {
  const { macpilot, processes } = useMacpilot(env);
  const folder = temporaryFolder('macpilot-churn-page-');
  afterAll(() => processes.stopAll());

  test('every walk and search answers with what it read; what does not change is read as it is, and the next calls work', async () => {
    const browser = startChromium(processes, join(folder, 'profile'), webPage('churn.html'));
    const app = String(browser.pid);
    await eventually('the page', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && out.text.includes('heading "Stays put"') ? true : undefined;
    });
    // Items come and go every few milliseconds, hundreds of them in each walk's time.
    for (let round = 0; round < 2; round++) {
      const walked = await macpilot.call('snapshot_ui', { app, include_hidden: true, max_nodes: 2000 });
      expect(walked.text).not.toMatch(/failed unexpectedly|bug in macpilot/);
      if (walked.isError) expect(walked.text).toMatch(/^Not done|gone|changed/);
      else expect(walked.text).toContain('heading "Stays put"');
      const found = await macpilot.call('find_elements', { app, role: 'button', include_hidden: true });
      expect(found.text).not.toMatch(/failed unexpectedly|bug in macpilot/);
      if (!found.isError) expect(found.text).toMatch(/^\d+ match(es)? in /);
    }
    // What does not change is read as it is, and the calls after all that work.
    const heading = await macpilot.ok('find_elements', { app, role: 'heading', name: 'Stays put' });
    expect(heading).toMatch(/^1 match in /);
    expect(await macpilot.ok('list_apps')).toContain(`Chromium (pid ${app})`);
    await processes.stop(browser.pid);
  });
});

describe('a web list whose rows hold links and fields', () => {
  const { macpilot, processes } = useMacpilot(env);
  const folder = temporaryFolder('macpilot-linked-rows-');
  afterAll(() => processes.stopAll());

  test('a search by name finds the link and the field inside a row, on screen and off it', async () => {
    const browser = startChromium(processes, join(folder, 'profile'), webPage('linked-rows.html'));
    const app = String(browser.pid);
    await eventually('the page', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && out.text.includes('link "Item number 3"') ? true : undefined;
    });
    // A row's own text is its link and its field as embedded objects: the search through the list (every row,
    // include_hidden) reads such rows whole.
    const search = (args: Record<string, unknown>) =>
      macpilot.ok('find_elements', { app, match: 'exact', include_hidden: true, ...args });
    expect(await search({ name: 'Item number 3' })).toMatch(/^- link "Item number 3" \[ref=e\d+\]/m);
    const field = await search({ role: 'textbox', name: 'field 3' });
    expect(field).toMatch(/^1 match in /);
    expect(field).toMatch(/^- textbox "field 3" \[ref=e\d+\]/m);
    expect(await search({ name: 'Item number 280' })).toMatch(/^- link "Item number 280" \[ref=e\d+\]/m);
    // Without include_hidden, the rows on screen are found by hit tests down the list, which Chromium now and
    // then answers with the list itself over rows it shows: each search finds the rows at the top all the same.
    for (let round = 0; round < 3; round++) {
      const onScreen = await macpilot.ok('find_elements', {
        app,
        match: 'exact',
        role: 'textbox',
        name: 'field 3',
      });
      expect(onScreen, `round ${round}`).toMatch(/^1 match in /);
      const link = await macpilot.ok('find_elements', {
        app,
        match: 'exact',
        role: 'link',
        name: 'Item number 1',
      });
      expect(link, `round ${round}`).toMatch(/^- link "Item number 1" \[ref=e\d+\]/m);
    }
    await processes.stop(browser.pid);
  });
});

describe('a web page of 6,000 rows, each a group of elements', () => {
  const { macpilot, processes } = useMacpilot(env);
  const folder = temporaryFolder('macpilot-grouped-rows-');
  afterAll(() => processes.stopAll());

  test('a search of everything whose walk stops at its cap still finds what is on screen', async () => {
    const browser = startChromium(processes, join(folder, 'profile'), webPage('grouped-rows.html'));
    const app = String(browser.pid);
    await eventually('the page', async () => {
      const out = await macpilot.call('find_elements', {
        app,
        role: 'button',
        name: 'Btn 3',
        match: 'exact',
      });
      return !out.isError && /^1 match in /.test(out.text) ? true : undefined;
    });
    // The walk of every element spends its cap on the 6,000 rows before their buttons: the rows on screen are
    // searched as well, so include_hidden never loses what the search without it finds.
    const all = await macpilot.ok('find_elements', {
      app,
      role: 'button',
      name: 'Btn 3',
      match: 'exact',
      include_hidden: true,
    });
    expect(all).toMatch(/the walk stopped at its node cap/);
    expect(all).toMatch(/^- button "Btn 3" \[ref=e\d+\]/m);
    await processes.stop(browser.pid);
  });
});

/** The renderer processes of the Chromium that leads process group `browser` (the test started it). */
function renderersOf(browser: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
        return group === browser && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}
