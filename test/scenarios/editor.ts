/**
 * A text editor, as an agent uses one: text set and typed into a new document and read back, selected and copied
 * through the menu bar (the clipboard holds it), saved through the Save panel (the file holds it), and the app
 * quit. One scenario, run with mousepad on Linux and TextEdit on macOS.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { gone } from '../../scripts/process-group.js';
import { useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually } from '../support/text.js';
import type { Desk } from './desk.js';
import { documentRef, textOf } from './document.js';

export function editorScenario(desk: Desk, env: Record<string, string>): void {
  const { macpilot, launch } = useMacpilot(env);
  const { editor: adapter } = desk;
  let app: string;
  const document = () => documentRef(macpilot, app);

  beforeAll(async () => {
    app = String(await launch(adapter.launch));
    await adapter.newDocument(macpilot, app);
  });

  test('set_value puts text in the new document and get_element reads it back from the app', async () => {
    const editor = await document();
    const text = 'Set by macpilot\nsecond line 42';
    await macpilot.ok('set_value', { ref: editor, value: text });
    expect(await textOf(macpilot, editor)).toBe(text);
  });

  test('type_text types into the document: every character arrives, in order', async () => {
    const editor = await document();
    await macpilot.ok('set_value', { ref: editor, value: '' });
    const typed = 'Typed by macpilot: 7 x 6 = 42.';
    await macpilot.ok('type_text', { ref: editor, text: typed });
    expect(await textOf(macpilot, editor)).toBe(typed);
  });

  test('Edit > Select All and Edit > Copy from the menu bar: the clipboard holds the document', async () => {
    const editor = await document();
    const text = 'Copied through the menus 815';
    await macpilot.ok('set_value', { ref: editor, value: text });
    await macpilot.ok('focus_element', { ref: editor });
    await macpilot.ok('click_menu_item', { app, path: 'Edit > Select All' });
    await macpilot.ok('click_menu_item', { app, path: 'Edit > Copy' });
    await eventually('the copied text on the clipboard', async () =>
      (await macpilot.ok('get_clipboard')).includes(text) ? true : undefined,
    );
  });

  test('saved through the Save panel: the file holds the document', async () => {
    const editor = await document();
    const text = 'Saved by macpilot through the Save panel\nsecond line';
    await macpilot.ok('set_value', { ref: editor, value: text });
    const file = join(temporaryFolder('macpilot-scenario-'), 'saved-by-scenario.txt');
    await adapter.saveAs(macpilot, app, file);
    await eventually('the saved file', async () => (existsSync(file) ? true : undefined));
    await eventually('the whole text in the file', async () =>
      readFileSync(file, 'utf8') === text ? true : undefined,
    );
  });

  test('quit_app with force ends the editor', async () => {
    await macpilot.ok('quit_app', { name: app, force: true });
    expect(await gone(Number(app), 30_000)).toBe(true);
  });
}
