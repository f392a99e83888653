/** gnome-calculator (GTK4): compute 7 × 6 by clicking refs found by name; the display shows the result. */
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const { macpilot, launch } = useMacpilot(inject('desktopEnv'));

beforeAll(async () => {
  await launch('Calculator', { timeout_ms: 30_000 });
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

test('focus_element moves GTK4 focus without pressing anything; typing then goes where it moved', async () => {
  const display = async () =>
    await macpilot.ok('find_elements', { app, role: 'textbox', value: '42', match: 'exact' });
  const input = refOf(await display(), /textbox/);
  const seven = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: '7', match: 'exact' }),
    /button "7"/,
  );

  await macpilot.ok('focus_element', { ref: seven });
  expect(await macpilot.ok('get_focused_element', { app })).toMatch(/^- button "7" \[ref=e\d+\] focused/);
  // A click would have pressed it: the display would read 427.
  expect(await display()).toContain(`[ref=${input}]`);

  await macpilot.ok('focus_element', { ref: input });
  expect(await macpilot.ok('get_focused_element', { app })).toMatch(
    new RegExp(`^- textbox \\[ref=${input}\\] focused`),
  );
  await macpilot.ok('type_text', { text: '+1' });
  await eventually('42+1 in the field that has focus', async () => {
    const out = await macpilot.ok('find_elements', { app, role: 'textbox', value: '42+1', match: 'exact' });
    return out.includes(`[ref=${input}]`) ? true : undefined;
  });
});
