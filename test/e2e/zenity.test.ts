/**
 * zenity --entry: fill the field and press OK through the MCP tools (or type on the keypad and press its Enter);
 * zenity itself prints what it got.
 */
import { expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const { macpilot, processes } = useMacpilot(inject('desktopEnv'));

/** A zenity entry dialog, and the ref of its field once macpilot finds it. */
async function entryDialog(title: string, question: string) {
  const zenity = processes.start('zenity', ['--entry', '--title', title, '--text', question]);
  const app = String(zenity.pid);
  const field = await eventually('the zenity entry', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'textbox' });
    return out.isError ? undefined : refOf(out.text, /textbox/);
  });
  return { zenity, app, field };
}

test('the text set in the entry is what zenity prints after OK', async () => {
  const { zenity, app, field } = await entryDialog('macpilot e2e', 'Your name?');

  const typed = 'Ada Lovelace — 1815 ✓';
  const set = await macpilot.ok('set_value', { ref: field, value: typed });
  expect(set).toContain(field);

  // A click on the field is a person's click, which puts the caret there: not its Activate action, which is
  // Enter and would submit the dialog.
  const intoField = await macpilot.ok('click_element', { ref: field });
  expect(intoField).toContain('with a synthetic click');
  expect(intoField).not.toContain('Activate');
  expect(await macpilot.ok('get_element', { ref: field })).toContain('focused');
  // The caret is where the click landed, in the text's middle: End takes it to the end.
  await macpilot.ok('press_key', { key: 'end' });
  // Typed where the focus is: the answer names the element the keys went to.
  expect(await macpilot.ok('type_text', { text: ' ✓' })).toMatch(
    /^Typed 2 characters into the focused textbox/,
  );
  const withMore = `${typed} ✓`;

  const okButton = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: 'OK', match: 'exact' }),
    /"OK"/,
  );
  const clicked = await macpilot.ok('click_element', { ref: okButton });
  expect(clicked).toContain('closed');

  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe(`${withMore}\n`);
});

test('a value longer than the entry holds: the answer says how much it kept, in the words of set_value, and OK prints that', async () => {
  const { zenity, field } = await entryDialog('macpilot long', 'Long?');
  // A number given to a text field is its digits, as a person types them.
  expect(await macpilot.ok('set_value', { ref: field, value: 1234 })).toContain('Set the value of textbox');
  expect(await macpilot.ok('get_element', { ref: field })).toMatch(/^value: "1234"$/m);
  // GTK's entry holds at most 65,535 characters (one fewer here): it keeps the start of what it is given.
  const cut = await macpilot.call('set_value', { ref: field, value: 'b'.repeat(70_000) });
  expect(cut.isError).toBe(true);
  expect(cut.text).toMatch(
    /^textbox "Long\?" \[ref=e\d+\] kept only the first (\d+) characters of the 70000 given\./,
  );
  expect(cut.text).not.toMatch(/type_text|typing \d+|text in parts/i);
  const kept = Number(/the first (\d+) characters/.exec(cut.text)?.[1]);
  expect(kept).toBeGreaterThan(60_000);
  expect((await macpilot.ok('get_element', { ref: field })).length).toBeGreaterThan(kept);
  // The field changed all the same: undo puts back what it held before.
  expect(await macpilot.ok('undo')).toMatch(/set_value/);
  expect(await macpilot.ok('get_element', { ref: field })).toMatch(/^value: "1234"$/m);
  await macpilot.ok('press_key', { key: 'enter' });
  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe('1234\n');
});

test("the keypad's keys type its characters, and its Enter submits the dialog as Enter does", async () => {
  const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot keypad', '--text', 'Amount?']);
  const app = String(zenity.pid);
  await eventually('the zenity entry', async () => {
    const out = await macpilot.call('get_focused_element', { app });
    return !out.isError && /textbox/.test(out.text) ? true : undefined;
  });
  // Num Lock is off on this desktop: the keypad's digits are its second level, which Shift does not reach.
  for (const key of ['numpad4', 'numpad2', 'numpaddecimal', 'numpad5', 'numpadmultiply', 'kp_2']) {
    await macpilot.ok('press_key', { key });
  }
  expect(await macpilot.ok('press_key', { key: 'numpadenter' })).toMatch(/The app "zenity" closed/);
  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe('42.5*2\n');
});

test("a click on a list row selects it, as a person's does, and OK prints the row chosen", async () => {
  const zenity = processes.start('zenity', ['--list', '--column', 'tea', 'Assam', 'Darjeeling', 'Rooibos']);
  const app = String(zenity.pid);
  const cells = await eventually('the list', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'cell' });
    return !out.isError && out.text.includes('cell "Rooibos"') ? out.text : undefined;
  });
  // The cell's own action, Activate, is a double-click: it would choose the row and close the dialog at once.
  const clicked = await macpilot.ok('click_element', { ref: refOf(cells, /cell "Darjeeling"/) });
  expect(clicked).toContain('with a synthetic click');
  expect(clicked).not.toContain('closed');
  // The click's answer is in the message: what it saw change, should the row not be selected.
  expect(await macpilot.ok('find_elements', { app, role: 'cell', name: 'Darjeeling' }), clicked).toMatch(
    /selected/,
  );
  const okButton = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: 'OK', match: 'exact' }),
    /"OK"/,
  );
  await macpilot.ok('click_element', { ref: okButton });
  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe('Darjeeling\n');
});
