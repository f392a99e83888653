/**
 * A browser beside a GTK app in one session, through a real MCP client: text written in mousepad is copied from
 * its menu and pasted into a web form in Chromium, whose page hears it; Chromium's own UI (the address bar, the
 * tabs: what every Electron app shares) is driven as an agent drives it; and each answer holds for the next call,
 * back in mousepad at the end.
 */
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { startChromium } from '../support/chromium.js';
import { webPage } from '../support/web-page.js';
import { useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const { macpilot, processes, start } = useMacpilot(env);
const folder = temporaryFolder('macpilot-browser-desk-');

/** Finds what matches, waiting for it to show: a browser fills its tree in after its answers. */
async function shown(app: string, args: Record<string, unknown>, line: RegExp): Promise<string> {
  return eventually(`${line} in ${app}`, async () => {
    const out = await macpilot.call('find_elements', { app, ...args });
    return !out.isError && line.test(out.text) ? out.text : undefined;
  });
}

test('text from mousepad pasted into a web form in Chromium, driven through its address bar and tabs, then mousepad again', async () => {
  const editor = String(await start('mousepad', 'menubar'));
  const editors = await shown(editor, { role: 'textbox' }, /multiline/);
  const text = refOf(editors, /multiline/);
  await macpilot.ok('type_text', { ref: text, text: 'Rooibos' });
  await macpilot.ok('click_menu_item', { app: editor, path: 'Edit > Select All' });
  await macpilot.ok('click_menu_item', { app: editor, path: 'Edit > Copy' });
  expect(await macpilot.ok('get_clipboard')).toContain('Rooibos');

  const browser = startChromium(processes, join(folder, 'profile'), 'about:blank');
  const app = String(browser.pid);
  const address = refOf(
    await shown(app, { role: 'textbox', name: 'Address and search bar', match: 'exact' }, /textbox/),
    /textbox "Address and search bar"/,
  );
  // The address bar takes no text through the accessibility layer: it is typed into, then Enter loads the page.
  await macpilot.ok('set_value', { ref: address, value: webPage('order-form.html') });
  await macpilot.ok('press_key', { key: 'Return' });
  await shown(app, { role: 'document', name: 'Order form', match: 'exact' }, /document "Order form"/);

  const item = refOf(
    await shown(app, { role: 'textbox', name: 'Item', match: 'exact' }, /textbox "Item"/),
    /textbox "Item"/,
  );
  await macpilot.ok('click_element', { ref: item });
  const pasted = await macpilot.ok('press_key', { key: 'ctrl+v' });
  // The page mirrors its field into its status region from its input listener: it heard the paste.
  if (!/text "Item: Rooibos"/.test(pasted)) await shown(app, { text: 'Item: Rooibos' }, /Item: Rooibos/);
  const place = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: 'Place order', match: 'exact' }),
    /button "Place order"/,
  );
  await macpilot.ok('click_element', { ref: place });
  await shown(app, { text: 'Placed 1 of Rooibos' }, /text "Placed 1 of Rooibos"/);

  // Chromium's own sliders (its resize handles) read in full: a malformed answer of Chromium's to one
  // question about them ends Chromium, so macpilot asks them another way, and Chromium stays.
  const sliders = await macpilot.ok('find_elements', { app, role: 'slider', include_hidden: true });
  const handles = [...sliders.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1] as string);
  expect(handles.length).toBeGreaterThan(0);
  for (const ref of handles) expect(await macpilot.ok('get_element', { ref })).toMatch(/^role: slider/m);
  expect(await macpilot.ok('list_apps')).toContain(`Chromium (pid ${app})`);

  // A second tab, then back to the first: the page kept its state; the second tab closed by its own button.
  await macpilot.ok('click_element', { path: `app(${app})/window[0]/button["New Tab"]` });
  // Chromium's tab names gain the memory their page uses under the pointer: left out, the paths stay valid.
  const tabs = await shown(app, { role: 'tab' }, /tab "Order form" .*\n- tab "New Tab" .*selected/);
  await macpilot.ok('click_element', { ref: refOf(tabs, /tab "Order form"/) });
  await shown(app, { role: 'tab', name: 'Order form', match: 'exact' }, /tab "Order form" .*selected/);
  await shown(app, { text: 'Placed 1 of Rooibos' }, /text "Placed 1 of Rooibos"/);
  await macpilot.ok('click_element', {
    path: `app(${app})/window[0]/tablist/tab["New Tab"]/button["Close"]`,
  });
  await eventually('one tab left', async () => {
    const out = await macpilot.ok('find_elements', { app, role: 'tab' });
    return /^1 match/.test(out) ? true : undefined;
  });

  // Back in mousepad, brought forward (its text still selected by Select All): the caret to the end, then typed
  // into by ref; the field gets the whole text.
  await macpilot.ok('activate_app', { name: editor });
  await macpilot.ok('press_key', { key: 'ctrl+End', app: editor });
  await macpilot.ok('type_text', { ref: text, text: ' and milk' });
  await eventually('mousepad holding both typings', async () => {
    const out = await macpilot.ok('get_element', { ref: text });
    if (!/^value: "Rooibos and milk"$/m.test(out)) throw new Error(out);
    return true;
  });
  const windows = await macpilot.ok('list_windows');
  expect(windows).toMatch(/Order form - Chromium/);
  expect(windows).toMatch(/Mousepad/);
});
