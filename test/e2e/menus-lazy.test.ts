/**
 * Menus an app fills only when they open (Thunar's Edit menu): listed, read and chosen by their path all the
 * same, and left closed after a list or a state read, through a real MCP client.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { startThunar } from '../support/daemons.js';
import { useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';
import { temporaryFolder } from '../support/temp.js';

const env = inject('desktopEnv');
const { macpilot, processes } = useMacpilot(env, ['--toolsets', 'all']);
const folder = temporaryFolder('macpilot-lazy-menus-');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test("Thunar's Edit menu, empty until it opens: listed, read, chosen, and closed again", async () => {
  const app = String(await startThunar(processes, env));
  for (const name of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(folder, name), 'x\n');
  await macpilot.ok('reveal_in_finder', { path: join(folder, 'a.txt') });
  await eventually("Thunar's window with its menu bar", async () => {
    const out = await macpilot.call('list_menu_items', { app });
    return out.isError ? undefined : /menu "Edit"/.test(out.text) || undefined;
  });
  // Closed, the menu holds nothing: what follows opens it.
  const before = await macpilot.call('find_elements', {
    app,
    name: 'Select all Files',
    include_hidden: true,
  });
  expect(before.text).toMatch(/^0 matches/);

  const edit = await macpilot.ok('list_menu_items', { app, path: 'Edit' });
  expect(edit).toMatch(/^- menuitem "Select all Files" \[ref=e\d+\] shortcut=Ctrl\+A$/m);
  expect(edit).toMatch(/^- menuitem "Cut" \[ref=e\d+\] shortcut=Ctrl\+X$/m); // a.txt is selected
  // The list leaves the menu as it found it: closed, its items off screen.
  const after = await macpilot.ok('find_elements', { app, name: 'Select all Files', include_hidden: true });
  expect(after).toMatch(/menuitem "Select all Files" \[ref=e\d+\] [^\n]*offscreen/);

  expect(await macpilot.ok('get_menu_item_state', { app, path: 'Edit > Invert Selection' })).toMatch(
    /enabled/,
  );

  // Thunar says the selection in its status bar about 100 ms after the menu closed: the answer waits for it.
  const chose = await macpilot.ok('click_menu_item', { app, path: 'Edit > Select all Files' });
  expect(chose).toMatch(/^~ statusbar "Selection: 3 files/m);
  const selected = await eventually('all three files selected in the status bar', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'statusbar', text: 'Selection: 3 files' });
    return out.isError || /^0 matches/.test(out.text) ? undefined : out.text;
  });
  expect(selected).toContain('statusbar "Selection: 3 files');

  // The states the menu had when last open are stale once the selection changed: read and chosen as it is now.
  const now = await macpilot.ok('list_menu_items', { app, path: 'Edit' });
  expect(now).toMatch(/^- menuitem "Unselect all Files" \[ref=e\d+\] shortcut=Escape$/m);
  const unselected = await macpilot.ok('click_menu_item', { app, path: 'Edit > Unselect all Files' });
  expect(unselected).toMatch(/^~ statusbar "3 files.* \(was: statusbar "Selection: 3 files/m);
  await eventually('nothing selected in the status bar', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'statusbar', text: 'Selection:' });
    return !out.isError && /^0 matches/.test(out.text) ? true : undefined;
  });

  // Opened and chosen by hand, element by element: the menu's closing is one line, not its items removed.
  const ref = (text: string) => /\[ref=(e\d+)\]/.exec(text)?.[1] ?? '';
  const menu = ref(await macpilot.ok('find_elements', { app, role: 'menu', name: 'Edit', match: 'exact' }));
  const opened = await macpilot.ok('click_element', { ref: menu });
  expect(opened).toMatch(/^\+ menuitem "Invert Selection" \[ref=e\d+\]/m);
  const invert = ref(/^\+ menuitem "Invert Selection" .*$/m.exec(opened)?.[0] ?? '');
  const chosen = await macpilot.ok('click_element', { ref: invert });
  expect(chosen).toMatch(/^~ menu "Edit" \[ref=e\d+\].*: it closed, hiding its \d+ items$/m);
  expect(chosen).not.toMatch(/^- (menuitem|separator)/m);
  await eventually('the three files selected again by Invert Selection', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'statusbar', text: 'Selection: 3 files' });
    return out.isError || /^0 matches/.test(out.text) ? undefined : true;
  });
});
