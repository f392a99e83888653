/** gnome-calculator (GTK4): compute 7 × 6 by clicking refs found by name; the display shows the result. */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { type Macpilot, startMacpilot } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const processes = new Processes(env);
let macpilot: Macpilot;

beforeAll(async () => {
  macpilot = await startMacpilot(env);
  const launched = await macpilot.ok('launch_app', { name: 'Calculator', timeout_ms: 30_000 });
  processes.track(Number(/pid (\d+)/.exec(launched)?.[1]));
});
afterAll(async () => {
  await macpilot.close();
  await processes.stopAll();
});

const app = 'gnome-calculator';

test('the keypad shows GTK4 buttons by their labels, not doubled names or widget types', async () => {
  const tree = await eventually('the keypad', async () => {
    const out = await macpilot.call('snapshot_ui', { app });
    return !out.isError && out.text.includes('button "7"') ? out.text : undefined;
  });
  expect(tree).toMatch(/- button "×" \[ref=e\d+\]/);
  expect(tree).not.toContain('"7 7"');
  expect(tree).not.toContain('GtkButton');
});

test('clicking 7 × 6 = by ref puts 42 on the display', async () => {
  for (const label of ['7', '×', '6', '=']) {
    const found = await macpilot.ok('find_elements', { app, role: 'button', name: label, match: 'exact' });
    const ref = refOf(found, new RegExp(`button "${label}"`));
    const clicked = await macpilot.ok('click_element', { ref });
    expect(clicked).toContain(`button "${label}" [ref=${ref}]`);
  }
  const display = await eventually('42 on the display', async () => {
    const out = await macpilot.ok('find_elements', { app, role: 'textbox', value: '42', match: 'exact' });
    return /\[ref=e\d+\]/.test(out) ? out : undefined;
  });
  expect(display).toContain('value="42"');
});
