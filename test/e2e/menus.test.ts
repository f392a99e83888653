/** Menus of mousepad through the MCP client, and saving a document to a chosen path purely by menus and dialog. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';
import { temporaryFolder } from '../support/temp.js';

const { macpilot, launch, processes } = useMacpilot(inject('desktopEnv'));
const folder = temporaryFolder('macpilot-menus-');
let app: string;
/** mousepad calls its File > Reload item "Revert" in some document states; both are disabled for a new one. */
const RELOAD = /^- menuitem "(Reload|Revert)" \[ref=e\d+\] disabled$/m;

beforeAll(async () => {
  app = String(await launch('mousepad'));
  // A folder of some size: the file chooser empties its list before it closes, and that takes it a while.
  for (let i = 1; i <= 40; i++) writeFileSync(join(folder, `file-${i}.txt`), `${i}\n`);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('list_menu_items shows the menu bar, and the File menu with states, shortcuts and submenus', async () => {
  const bar = await macpilot.ok('list_menu_items', { app });
  expect(bar).toMatch(/^- menu "File" \[ref=e\d+\] ▸$/m);
  expect(bar).toMatch(/^- menu "Help" \[ref=e\d+\] ▸$/m);

  const file = await macpilot.ok('list_menu_items', { app, path: 'file' });
  expect(file).toMatch(/^- menuitem "Save" \[ref=e\d+\] shortcut=Ctrl\+S$/m);
  expect(file).toMatch(/^- menuitem "Save As\.\.\." \[ref=e\d+\] shortcut=Ctrl\+Shift\+S$/m);
  expect(file).toMatch(/^- menuitem "Save All" \[ref=e\d+\]$/m);
  expect(file).toMatch(RELOAD);
  expect(file).toMatch(/^- menu "Open Recent" \[ref=e\d+\] ▸$/m);
  expect(file).not.toMatch(/separator/);

  const deeper = await macpilot.ok('list_menu_items', { app, path: 'File', depth: 2 });
  expect(deeper).toMatch(/^ {2}- menuitem "Clear History" \[ref=e\d+\]/m);
});

test('a path that does not exist is refused with what exists where it failed', async () => {
  const wrong = await macpilot.call('click_menu_item', { app, path: 'File > Save Everything' });
  expect(wrong.isError).toBe(true);
  expect(wrong.text).toContain('No menu item "Save Everything" in the menu "File"');
  expect(wrong.text).toContain('"Save As..."');
  expect(wrong.text).toContain('"Open Recent" ▸');

  const top = await macpilot.call('list_menu_items', { app, path: 'Fiel' });
  expect(top.isError).toBe(true);
  expect(top.text).toMatch(/it holds: "File" ▸, "Edit" ▸/);
});

test('get_menu_item_state tells enabled from disabled and submenus from items', async () => {
  const name = RELOAD.exec(await macpilot.ok('list_menu_items', { app, path: 'File' }))?.[1];
  const reload = await macpilot.ok('get_menu_item_state', { app, path: `File > ${name}` });
  expect(reload).toContain('state: disabled, no submenu');
  const saveAs = await macpilot.ok('get_menu_item_state', { app, path: 'File > Save As…' });
  expect(saveAs).toContain('state: enabled, no submenu');
  expect(saveAs).toContain('element path: app("mousepad")/');
  const recent = await macpilot.ok('get_menu_item_state', { app, path: 'File > Open Recent' });
  expect(recent).toContain('has a submenu');
});

test('the shortcut a menu item shows, pressed with press_key as written, does what the item does', async () => {
  const state = await macpilot.ok('get_menu_item_state', { app, path: 'File > Save As…' });
  const shortcut = /^shortcut: (\S+)/m.exec(state)?.[1] ?? '';
  expect(shortcut).toBe('Ctrl+Shift+S');
  const opened = await macpilot.ok('press_key', { key: shortcut });
  expect(opened).toMatch(/opened: dialog "Save As"/);
  const closed = await macpilot.ok('press_key', { key: 'escape' });
  expect(closed).toMatch(/closed: dialog "Save As"/);
});

test("a menu bar's menu opened by a click says it opened; Escape (nothing has the focus then) says it closed", async () => {
  const file = refOf(await macpilot.ok('find_elements', { app, role: 'menu', name: 'File' }), /menu "File"/);
  const opened = await macpilot.ok('click_element', { ref: file });
  expect(opened).toMatch(/^\+ menuitem "Save As\.\.\." \[ref=e\d+\]/m);
  const closed = await macpilot.ok('press_key', { key: 'escape' });
  expect(closed).toMatch(
    new RegExp(`^~ menu "File" \\[ref=${file}\\] .*it closed, hiding its \\d+ items$`, 'm'),
  );
  expect(closed).not.toContain('Nothing changed');
  const open = await macpilot.ok('find_elements', { app, role: 'menuitem', name: 'Save As' });
  expect(open).toMatch(/^0 matches/);
});

test('a menu a modal dialog covers is not clicked: the call fails at once and leaves the dialog as it was', async () => {
  const opened = await macpilot.ok('click_menu_item', { app, path: 'File > Save As…' });
  expect(opened).toMatch(/opened: dialog "Save As"/);
  const blocked = await macpilot.call('click_menu_item', { app, path: 'File > Save As…' });
  expect(blocked.isError).toBe(true);
  expect(blocked.text).toMatch(/Did not open the menu "File": the app's window "Save As" covers it/);
  expect(await macpilot.ok('find_elements', { app, role: 'dialog', name: 'Save As' })).toMatch(/^1 match/);
  const closed = await macpilot.ok('press_key', { key: 'escape' });
  expect(closed).toMatch(/closed: dialog "Save As"/);
});

test('a path that ends at a submenu, or goes on past an item, is refused with what is there; no menu stays open', async () => {
  const submenu = await macpilot.call('click_menu_item', { app, path: 'File > Open Recent' });
  expect(submenu.isError).toBe(true);
  expect(submenu.text).toMatch(/^Did not click "File > Open Recent": it is a menu, not an item\./);
  expect(submenu.text).toMatch(/Next: name one of its items: "File > Open Recent > …"/);
  const past = await macpilot.call('click_menu_item', { app, path: 'File > Save > Now' });
  expect(past.isError).toBe(true);
  expect(past.text).toMatch(
    /^No menu item "Now" under "File > Save"\.\nWhy: "File > Save" is a menu item that opens no submenu/,
  );
  const shown = await macpilot.ok('find_elements', { app, role: 'menuitem', name: 'Save' });
  expect(shown).toMatch(/^0 matches/);
  expect(await macpilot.ok('find_elements', { app, role: 'dialog' })).toMatch(/^0 matches/);
});

test('a document is saved to a chosen path through File > Save As… and the file dialog', async () => {
  const text = 'Saved by macpilot through the menus\nsecond line ✓';
  const target = join(folder, 'saved-by-menus.txt');

  const editors = await macpilot.ok('find_elements', { app, role: 'textbox' });
  await macpilot.ok('set_value', { ref: refOf(editors, /multiline/), value: text });

  const opened = await macpilot.ok('click_menu_item', { app, path: 'File > Save As…' });
  expect(opened).toContain('Clicked the menu item "File > Save As..."');
  expect(opened).toMatch(/opened: dialog "Save As"/);

  // The file chooser's name field has no name of its own (a "Name:" label names it) and has the focus.
  const focused = await macpilot.ok('get_focused_element', { app });
  expect(focused).toMatch(/^- textbox "Name:" \[ref=e\d+\] focused/);
  await macpilot.ok('set_value', { ref: refOf(focused, /textbox/), value: target });

  const dialog = refOf(opened, /opened: dialog "Save As"/);
  const buttons = await macpilot.ok('find_elements', {
    app,
    role: 'button',
    name: 'Save',
    match: 'exact',
    within: dialog,
  });
  const saved = await macpilot.ok('click_element', { ref: refOf(buttons, /button "Save"/) });
  expect(saved).toContain('Clicked button "Save"');
  // The answer comes once the app has done it: the dialog closed, the window named by the file, the file there.
  expect(saved).toMatch(/closed: dialog "Save As"/);
  expect(saved).toContain(`~ window "${target} - Mousepad"`);
  expect(readFileSync(target, 'utf8')).toBe(text);
  const windows = await macpilot.ok('list_windows', { app });
  expect(windows).toContain(`"${target} - Mousepad"`);
});

test("a click while GTK's completion list is open only closes the list: the answer says the button was most likely not pressed", async () => {
  const target = join(folder, 'file-1');
  const opened = await macpilot.ok('click_menu_item', { app, path: 'File > Save As…' });
  const dialog = refOf(opened, /opened: dialog "Save As"/);
  const name = refOf(await macpilot.ok('get_focused_element', { app }), /textbox "Name:"/);
  // Typed, not set: the list of the folder's names that complete it opens under the field as keys arrive.
  await macpilot.ok('type_text', { ref: name, text: target, clear_first: true });
  await eventually('the completion list', async () => {
    const windows = await macpilot.ok('find_elements', { app, role: 'window' });
    return /^- window \[ref=e\d+\]$/m.test(windows) ? true : undefined;
  });
  const save = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: 'Save', match: 'exact', within: dialog }),
    /button "Save"/,
  );
  const first = await macpilot.ok('click_element', { ref: save });
  expect(first).toContain('The click closed the app’s popup window');
  expect(first).toContain('the element was most likely not pressed');
  expect(first).not.toMatch(/closed: dialog "Save As"/);
  expect(() => readFileSync(target)).toThrow();
  const second = await macpilot.ok('click_element', { ref: save });
  expect(second).toMatch(/closed: dialog "Save As"/);
  expect(second).not.toContain('popup');
  expect(readFileSync(target, 'utf8')).toContain('Saved by macpilot through the menus');
});

test('click_element on a menu bar item chooses it as a person does (its own action would block on the dialog it opens); the dialog confirms with Enter', async () => {
  const text = 'Confirmed with Enter';
  const target = join(folder, 'saved-with-enter.txt');
  const editors = await macpilot.ok('find_elements', { app, role: 'textbox' });
  await macpilot.ok('set_value', { ref: refOf(editors, /multiline/), value: text });

  const file = await macpilot.ok('list_menu_items', { app, path: 'File' });
  const clicked = await macpilot.ok('click_element', { ref: refOf(file, /menuitem "Save As\.\.\."/) });
  expect(clicked).toContain('Clicked the menu item "File > Save As..."');
  expect(clicked).toMatch(/opened: dialog "Save As"/);
  const focused = await macpilot.ok('get_focused_element', { app });
  await macpilot.ok('set_value', { ref: refOf(focused, /textbox "Name:"/), value: target });
  const confirmed = await macpilot.ok('press_key', { key: 'enter' });
  expect(confirmed).toMatch(/closed: dialog "Save As"/);
  expect(confirmed).toContain(`~ window "${target} - Mousepad"`);
  expect(readFileSync(target, 'utf8')).toBe(text);
});

test("a path typed into the file chooser's location, submitted: the file opens, and the answer says so", async () => {
  const target = join(folder, 'file-7.txt');
  expect(await macpilot.ok('click_menu_item', { app, path: 'File > Open…' })).toMatch(
    /opened: dialog "Open File"/,
  );
  await macpilot.ok('press_key', { key: 'ctrl+l' });
  // Open is disabled until the chooser has read the path typed: Enter waits for it, then presses it.
  const opened = await macpilot.ok('type_text', { text: target, submit: true });
  expect(opened).toMatch(/closed: dialog "Open File"/);
  expect(opened).toContain(`~ window "${target} - Mousepad"`);
});

test('radio items say checked or not checked, and choosing one moves the check', async () => {
  const demo = processes.start('gtk3-demo', ['--run', 'menus']);
  const radios = 'test line2 > item 2 - 1';
  const listed = () => macpilot.ok('list_menu_items', { app: String(demo.pid), path: radios });
  await eventually('the menus demo', async () =>
    (await macpilot.call('list_menu_items', { app: String(demo.pid), path: radios })).isError
      ? undefined
      : true,
  );
  const before = await listed();
  expect(before).toMatch(/^- menuitemradio "item 1 - 1" \[ref=e\d+\] checked$/m);
  expect(before).toMatch(/^- menuitemradio "item 1 - 3" \[ref=e\d+\] not checked$/m);

  await macpilot.ok('click_menu_item', { app: String(demo.pid), path: `${radios} > item 1 - 3` });
  const after = await listed();
  expect(after).toMatch(/^- menuitemradio "item 1 - 1" \[ref=e\d+\] not checked$/m);
  expect(after).toMatch(/^- menuitemradio "item 1 - 3" \[ref=e\d+\] checked$/m);
  await processes.stop(demo.pid);
});
