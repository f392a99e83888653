/** mousepad, launched through launch_app: set the document text, read it back, find it by path, quit. */
import { beforeAll, expect, inject, test } from 'vitest';
import { gone } from '../../scripts/process-group.js';
import { useMacpilot } from '../support/mcp.js';
import { refOf } from '../support/text.js';

const { macpilot, launch } = useMacpilot(inject('desktopEnv'));
let pid: number;

beforeAll(async () => {
  pid = await launch('mousepad');
});

test('launch_app started mousepad and list_apps shows it', async () => {
  const apps = await macpilot.ok('list_apps');
  expect(apps).toMatch(new RegExp(`mousepad.*pid ${pid}`, 'i'));
});

test('set_value puts text in the document and get_element reads it back from the app', async () => {
  const found = await macpilot.ok('find_elements', { app: String(pid), role: 'textbox' });
  const editor = refOf(found, /multiline/);
  const text = 'Hello from macpilot\nsecond line "quoted"';
  const result = await macpilot.ok('set_value', { ref: editor, value: text });
  // The post-action diff shows the app's own reaction: the title marks the document as modified.
  expect(result).toMatch(/\*Untitled/);

  const element = await macpilot.ok('get_element', { ref: editor });
  expect(element).toContain(JSON.stringify(text));

  const path = /path: (.+)/.exec(element)?.[1];
  expect(path).toMatch(/^app\("mousepad"\)\//);
  const byPath = await macpilot.ok('get_element', { path });
  expect(byPath).toContain(`ref: ${editor}`);
});

test('type_text of a long, repetitive text, and a key pressed 100 times, answer once all of it is in the document', async () => {
  const found = await macpilot.ok('find_elements', { app: String(pid), role: 'textbox' });
  const editor = refOf(found, /multiline/);
  const pattern = 'abcdefghij'.repeat(150);
  await macpilot.ok('set_value', { ref: editor, value: pattern });
  await macpilot.ok('type_text', { ref: editor, text: pattern });
  const value = await macpilot.client.callTool({ name: 'get_element', arguments: { ref: editor } });
  expect((value.structuredContent as { value?: string }).value?.length).toBe(2 * pattern.length);
  // A key pressed 100 times into the focused document: the answer comes once all 100 are in it.
  await macpilot.ok('press_key', { key: 'c', repeat: 100 });
  const pressed = await macpilot.client.callTool({ name: 'get_element', arguments: { ref: editor } });
  expect((pressed.structuredContent as { value?: string }).value?.length).toBe(2 * pattern.length + 100);
});

test('type_text of many lines answers once they are all in the document, not as the keys go out', async () => {
  const found = await macpilot.ok('find_elements', { app: String(pid), role: 'textbox' });
  const editor = refOf(found, /multiline/);
  const lines = Array.from({ length: 300 }, (_, i) => `line ${i} ✓`).join('\n');
  const typed = await macpilot.ok('type_text', { ref: editor, text: lines, clear_first: true });
  expect(typed).not.toMatch(/not the text typed|still changing/);
  // Read once, right after the answer: all of it is there already.
  const value = await macpilot.client.callTool({ name: 'get_element', arguments: { ref: editor } });
  expect((value.structuredContent as { value?: string }).value).toBe(lines);
});

test('menu items in closed menus are found with include_hidden, by the name a person types', async () => {
  const visible = await macpilot.ok('find_elements', {
    app: String(pid),
    role: 'menuitem',
    name: 'Save As…',
  });
  expect(visible).toMatch(/^0 matches/);
  expect(visible).toContain('include_hidden');
  const all = await macpilot.ok('find_elements', {
    app: String(pid),
    role: 'menuitem',
    name: 'Save As…',
    include_hidden: true,
  });
  expect(all).toMatch(/menuitem "Save As\.\.\..*\[ref=e\d+\]/);
  const ref = refOf(all, /"Save As/);

  // A path typed as a person would: role aliases, "…" for "...", no toolkit panels.
  const typed = 'app("mousepad")/window[0]/menu_bar/menu_item["File"]/menu_item["Save As…"]';
  const wrongRole = await macpilot.call('get_element', { path: typed });
  expect(wrongRole.isError).toBe(true);
  expect(wrongRole.text).toContain('there now: menu "File"');
  const byPath = await macpilot.ok('get_element', {
    path: typed.replace('menu_item["File"]', 'menu["File"]'),
  });
  expect(byPath).toContain(`ref: ${ref}`);
});

test('quit_app of mousepad with unsaved text: it asks to save and does not quit, which is a failure, not a quit', async () => {
  const asked = await macpilot.call('quit_app', { name: String(pid) });
  expect(asked.isError).toBe(true);
  expect(asked.text).toMatch(/did not quit within 5 s/);
  expect(asked.text).toContain('quit_app with force');
  expect(await gone(pid, 500)).toBe(false);
});

test('quit_app with force ends mousepad', async () => {
  const out = await macpilot.ok('quit_app', { name: String(pid), force: true });
  expect(out).toMatch(/quit|exited|ended/i);
  expect(await gone(pid, 30_000)).toBe(true);
});
