/** The input toolset through a real MCP client: typing, keys, clicks and scrolling, checked in the apps' state. */
import { execFileSync } from 'node:child_process';
import { expect, inject, test } from 'vitest';
import { pointText } from '../../src/bounds.js';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf, settled } from '../support/text.js';
import { keepAbove, netWmState } from '../support/xwindows.js';
import { zenityEntry } from '../support/zenity.js';

const env = inject('desktopEnv');
const { macpilot, launch, processes } = useMacpilot(env);

/** The value get_element reports, once it is `expected` (or as it is after a while, for the assertion). */
const valueOf = (ref: string, expected: string) =>
  settled(async () => /^value: (.*)$/m.exec(await macpilot.ok('get_element', { ref }))?.[1] ?? '', expected);

const centreOf = async (ref: string) => {
  const detail = await macpilot.ok('get_element', { ref });
  const [, x, y, w, h] = (/bounds: x=(-?\d+) y=(-?\d+) width=(\d+) height=(\d+)/.exec(detail) ?? []).map(
    Number,
  );
  return { x: (x ?? 0) + (w ?? 0) / 2, y: (y ?? 0) + (h ?? 0) / 2 };
};

test('mousepad: type_text into a ref, clear_first, press_key; the document holds exactly what was typed', async () => {
  const pid = await launch('mousepad');
  const editor = refOf(
    await macpilot.ok('find_elements', { app: String(pid), role: 'textbox' }),
    /multiline/,
  );

  const first = 'draft to be replaced';
  const typed = await macpilot.ok('type_text', { ref: editor, text: first });
  expect(typed.split('\n')[0]).toBe(`Focused textbox [ref=${editor}], typed 20 characters.`);
  expect(await valueOf(editor, JSON.stringify(first))).toBe(JSON.stringify(first));

  const text = 'Grüße, 世界 ✓ — "quoted" 😀\nline two';
  const replaced = await macpilot.ok('type_text', { ref: editor, text, clear_first: true });
  expect(replaced.split('\n')[0]).toBe(
    `Focused textbox [ref=${editor}], cleared it, typed ${[...text].length} characters.`,
  );
  expect(await valueOf(editor, JSON.stringify(text))).toBe(JSON.stringify(text));

  // Keys go where the focus is: two lefts, then a character between "t" and "w" of "two".
  const left = await macpilot.ok('press_key', { key: 'Left', repeat: 2 });
  expect(left.split('\n')[0]).toBe('Pressed left 2 times.');
  await macpilot.ok('type_text', { text: '-' });
  const edited = text.replace('two', 't-wo');
  expect(await valueOf(editor, JSON.stringify(edited))).toBe(JSON.stringify(edited));

  // Named as Linux keyboards name them, however the agent wrote the modifier.
  const all = await macpilot.ok('press_key', { key: 'a', modifiers: ['command'] });
  expect(all.split('\n')[0]).toBe('Pressed ctrl+a.');
  expect((await macpilot.ok('press_key', { key: 'BackSpace' })).split('\n')[0]).toBe('Pressed backspace.');
  expect(await valueOf(editor, '""')).toBe('""');
});

test('zenity: type_text into a one-line field adds to its text (focus selects it all); clear_first replaces it', async () => {
  const { zenity, field, value } = await zenityEntry(macpilot, processes, 'macpilot type adds');
  await macpilot.ok('set_value', { ref: field, value: 'Bob' });
  await macpilot.ok('type_text', { ref: field, text: 'by' });
  expect(await settled(value, 'Bobby')).toBe('Bobby');
  await macpilot.ok('type_text', { ref: field, text: 'Ann', clear_first: true });
  expect(await settled(value, 'Ann')).toBe('Ann');
  await processes.stop(zenity.pid);
});

test('mousepad: a right click through click_element opens the context menu; escape closes it', async () => {
  const pid = (await macpilot.ok('list_apps')).match(/mousepad \(pid (\d+)\)/)?.[1] ?? '';
  const editor = refOf(await macpilot.ok('find_elements', { app: pid, role: 'textbox' }), /multiline/);
  const clicked = await macpilot.ok('click_element', { ref: editor, button: 'right' });
  expect(clicked).toMatch(
    new RegExp(`^Right-clicked textbox \\[ref=${editor}\\] at its centre \\(\\d+,\\d+\\)`),
  );
  // The diff shows the popup menu that opened, with the editor's usual entries.
  expect(clicked).toMatch(/menuitem "(Paste|Select All)/);
  const menus = async () =>
    (await macpilot.ok('find_elements', { app: pid, role: 'menuitem', name: 'Select All' })).match(
      /^\d+/,
    )?.[0];
  expect(Number(await menus())).toBeGreaterThan(0);
  await macpilot.ok('press_key', { key: 'escape' });
  expect(await settled(menus, '0')).toBe('0');
});

/** A zenity whose image has no action, and a zenity entry dialog moved exactly over it. */
async function coveredPair(title: string) {
  const covered = processes.start('zenity', ['--info', '--title', 'macpilot covered', '--text', 'Under']);
  const image = await eventually('the covered dialog', async () => {
    const found = await macpilot.call('find_elements', { app: String(covered.pid), role: 'image' });
    return found.isError ? undefined : /\[ref=(e\d+)\]/.exec(found.text)?.[1];
  });
  const over = await zenityEntry(macpilot, processes, title);
  const windows = async () =>
    (
      (await macpilot.client.callTool({ name: 'list_windows', arguments: {} })).structuredContent as {
        windows: { id: string; pid: number; focused: boolean; bounds: { x: number; y: number } }[];
      }
    ).windows;
  const under = (await windows()).find((w) => w.pid === covered.pid);
  const top = (await windows()).find((w) => w.pid === over.zenity.pid)?.id ?? '';
  await macpilot.ok('move_window', { window_id: top, x: under?.bounds.x ?? 0, y: under?.bounds.y ?? 0 });
  const focused = async (pid: number) => (await windows()).find((w) => w.pid === pid)?.focused;
  const stop = async () => {
    await processes.stop(covered.pid);
    await processes.stop(over.zenity.pid);
  };
  return { covered, image, over, top, focused, stop };
}

test("zenity: click_element on an element without an action, under another app's window: its window comes in front first", async () => {
  const { covered, image, over, top, focused, stop } = await coveredPair('macpilot covering');
  await macpilot.ok('focus_window', { window_id: top });
  expect(await focused(over.zenity.pid)).toBe(true);
  const clicked = await macpilot.ok('click_element', { ref: image });
  expect(clicked).toMatch(/^Clicked image .* at its centre/);
  expect(await focused(covered.pid)).toBe(true);
  await stop();
});

test("zenity: click_element under another app's window kept on top is refused; the pointer never reaches that window", async () => {
  const { image, over, top, stop } = await coveredPair('macpilot on top');
  await keepAbove(env, top);
  await macpilot.ok('set_value', { ref: over.field, value: 'untouched' });
  const pointer = () => execFileSync('xdotool', ['getmouselocation'], { env, encoding: 'utf8' });
  const before = pointer();
  const refused = await macpilot.call('click_element', { ref: image, button: 'right' });
  expect(refused.isError).toBe(true);
  expect(refused.text).toMatch(
    /^image .*\[ref=e\d+\] is covered at its centre, so the pointer did not act\./,
  );
  expect(refused.text).toMatch(/move_window.*minimize_window/);
  // Nothing reached the window on top: the pointer did not move, its field keeps its text, it still runs.
  expect(pointer()).toBe(before);
  expect(await over.value()).toBe('untouched');
  expect(netWmState(env, top)).toContain('_NET_WM_STATE_ABOVE');
  await stop();
});

test('gtk3-demo: click at a tab selects it; scroll over the demo list moves its scroll bar', async () => {
  const pid = String(await launch('gtk3-demo'));
  const source = refOf(
    await macpilot.ok('find_elements', { app: pid, role: 'tab', name: 'Source' }),
    /"Source"/,
  );
  const at = await centreOf(source);
  const clicked = await macpilot.ok('click', at);
  // The point as given, to a tenth (a centre may fall on a half pixel).
  expect(clicked.split('\n')[0]).toBe(`Clicked ${pointText(at)}.`);
  expect(await macpilot.ok('get_element', { ref: source })).toMatch(/^states: .*selected/m);

  const list = refOf(await macpilot.ok('find_elements', { app: pid, role: 'table' }), /\[ref=/);
  const bar = refOf(await macpilot.ok('find_elements', { app: pid, role: 'scrollbar' }), /\[ref=/);
  expect(await valueOf(bar, '0')).toBe('0');
  const scrolled = await macpilot.ok('scroll', { direction: 'down', amount: 250, ref: list });
  expect(scrolled.split('\n')[0]).toMatch(/^Scrolled down 5 wheel steps \(about 250 px\) at table/);
  const moved = await eventually('the scroll bar to move', async () => {
    const value = Number(/^value: (.*)$/m.exec(await macpilot.ok('get_element', { ref: bar }))?.[1]);
    return value > 0 ? value : undefined;
  });
  // Exact amounts in both axes: on X11 the nearest wheel steps, said so; back up by as much.
  const back = await macpilot.ok('scroll', { dx: 0, dy: -250, ref: list });
  expect(back.split('\n')[0]).toMatch(
    /^Scrolled 250 px up at table .*, sent as 5 wheel steps of 50 px \(X11 scrolls in wheel steps/,
  );
  await eventually('the scroll bar to come back', async () =>
    Number(/^value: (.*)$/m.exec(await macpilot.ok('get_element', { ref: bar }))?.[1]) < moved
      ? true
      : undefined,
  );
  const nothing = await macpilot.call('scroll', { dx: 0, dy: 0 });
  expect(nothing.isError).toBe(true);
  expect(nothing.text).toContain('dx and dy are both 0: nothing to scroll');
});

test('input tools validate their arguments and explain unknown keys', async () => {
  const unknown = await macpilot.call('press_key', { key: 'ctrl+hyperspace' });
  expect(unknown.isError).toBe(true);
  expect(unknown.text).toContain('Unknown key "hyperspace"');
  expect(unknown.text).toContain('pageup');
  const both = await macpilot.call('double_click', { x: 1, y: 2, ref: 'e1' });
  expect(both.isError).toBe(true);
  // A key for a named app goes there only when the focus is in it: otherwise another app would get it.
  const behind = await zenityEntry(macpilot, processes, 'macpilot key behind');
  const front = await zenityEntry(macpilot, processes, 'macpilot key in front');
  await macpilot.ok('set_value', { ref: behind.field, value: 'kept' });
  await macpilot.ok('focus_element', { ref: front.field });
  const elsewhere = await macpilot.call('press_key', { key: 'BackSpace', app: String(behind.zenity.pid) });
  expect(elsewhere.isError).toBe(true);
  expect(elsewhere.text).toMatch(/^Not done: the keyboard focus is not in zenity \(pid \d+\)/);
  expect(await behind.value()).toBe('kept');
  const pressed = await macpilot.ok('press_key', { key: 'End', app: String(front.zenity.pid) });
  expect(pressed).toMatch(/^Pressed end\./);
  await processes.stop(behind.zenity.pid);
  await processes.stop(front.zenity.pid);
  // An argument a tool does not take is refused by name, never dropped: clear is not clear_first.
  const misnamed = await macpilot.call('type_text', { text: 'x', clear: true });
  expect(misnamed.isError).toBe(true);
  expect(misnamed.text).toMatch(
    /type_text takes no argument "clear"; it takes text, ref, path, .*clear_first/,
  );
  // So is one inside an argument: a region's, a workflow step's.
  const region = { x: 0, y: 0, width: 10, height: 10, depth: 3 };
  const nested = await macpilot.call('take_screenshot', { region });
  expect(nested.isError).toBe(true);
  expect(nested.text).toMatch(/"depth"/);
  const step = await macpilot.call('run_workflow', { steps: [{ tool: 'list_apps', args: {}, bogus: 1 }] });
  expect(step.isError).toBe(true);
  expect(step.text).toMatch(/"bogus"/);
});
