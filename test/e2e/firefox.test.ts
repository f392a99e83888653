/**
 * Debian's Firefox ESR through a real MCP client: the order form read (Firefox keeps a region's text as its own,
 * not in a child as Chromium does), filled as a person types it (Firefox says yes to text set through the
 * accessibility layer and keeps the old), the order placed by the button's own action, and a button far down
 * the page scrolled to and clicked. The page writes what it heard into its status region: that is the proof.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startFirefox } from '../support/firefox.js';
import { type Macpilot, startMacpilot } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { temporaryFolder } from '../support/temp.js';
import { placeOrder, scrolledToFarButton, webPage } from '../support/web-page.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const folder = temporaryFolder('macpilot-firefox-');
const processes = new Processes(env);

let macpilot: Macpilot;
let app: string;

/** The status region's line, once it shows `text`. */
const statusShows = (text: string) =>
  eventually(`the status region to show "${text}"`, async () => {
    const out = await macpilot.call('find_elements', { app, role: 'statusbar', include_hidden: true });
    return out.text.includes(`value=${JSON.stringify(text)}`) ? out.text : undefined;
  });

beforeAll(async () => {
  // The server first: it turns the desktop's accessibility switch on, which Firefox reads as it starts.
  macpilot = await startMacpilot(env);
  const firefox = startFirefox(processes, join(folder, 'profile'), webPage('order-form.html'));
  app = String(firefox.pid);
  await eventually('the order form in Firefox', async () => {
    const out = await macpilot.call('find_elements', {
      app,
      role: 'button',
      name: 'Place order',
      match: 'exact',
    });
    return out.text.includes('button "Place order"') ? true : undefined;
  });
});

afterAll(async () => {
  await macpilot.close();
  await processes.stopAll();
});

describe('Firefox: the order form through MCP alone', () => {
  test('its page as an agent needs it: landmarks, labelled fields, a link with its URL, the status text', async () => {
    // Firefox fills its page's tree in after the first button shows: read once the status region is there.
    const tree = await eventually('the whole page', async () => {
      const out = await macpilot.ok('snapshot_ui', { app });
      // Read while it still loads, a heading may lack its level (1 run in 5): read again until it is done.
      return out.includes('- statusbar') && !out.includes('state: loading') ? out : undefined;
    });
    expect(tree).toMatch(/- document "Order form" \[ref=e\d+\]/);
    expect(tree).toMatch(/- landmark "Site" \[ref=e\d+\]/);
    expect(tree).toMatch(/- heading "Order form" \[ref=e\d+\] level=1/);
    expect(tree).toMatch(/- textbox "Item" \[ref=e\d+\].* required/);
    expect(tree).toMatch(/- spinbutton "Quantity" \[ref=e\d+\].* value=1/);
    expect(tree).toMatch(/- link "Help" \[ref=e\d+\].* value="https:\/\/example\.com\/help"/);
    expect(tree).toMatch(/- statusbar \[ref=e\d+\] value="Nothing ordered"/);
    // A paragraph's text whole, its inline elements' text in their places.
    expect(tree).toMatch(/- paragraph \[ref=e\d+\] value="Orders ship in 2 days, see the terms\."/);
    // Firefox's own UI: its actions have names again (Firefox lists each as ";;").
    // Reload, or Stop in its place while Firefox still loads something of the page (seen once in a full run).
    // Hidden ones too: one full run found neither on screen (the toolbar then built, or covered, 52 elements shown).
    const toolbar = async (name: string) =>
      macpilot.ok('find_elements', { app, role: 'button', name, match: 'exact', include_hidden: true });
    let reload = await toolbar('Reload');
    if (!/button "Reload"/.test(reload)) reload = await toolbar('Stop');
    expect(await macpilot.ok('get_element', { ref: refOf(reload, /button "(Reload|Stop)"/) })).toContain(
      'actions: press',
    );
  });

  test('a field is typed into (the page hears it), a number and a checkbox set, the order placed by the button', async () => {
    const fields = await macpilot.ok('find_elements', { app, role: 'textbox', name: 'Item', match: 'exact' });
    // Another app's window in front: the field's own window is brought forward to be typed into.
    const other = processes.start('zenity', ['--info', '--text', 'In front of Firefox']);
    await eventually('zenity in front', async () => {
      const out = await macpilot.call('list_apps');
      return new RegExp(`zenity \\(pid ${other.pid}\\).* active`).test(out.text) ? true : undefined;
    });
    const set = await macpilot.ok('set_value', { ref: refOf(fields, /textbox "Item"/), value: 'Tea' });
    await processes.stop(other.pid);
    // Firefox took the text through the accessibility layer in words only: macpilot typed it, and says so.
    expect(set).toContain('typed 3 characters');
    expect(set).toContain('the app takes no text set through the accessibility layer');
    await statusShows('Item: Tea');

    const quantity = await macpilot.ok('find_elements', { app, role: 'spinbutton' });
    const three = await macpilot.ok('set_value', { ref: refOf(quantity, /spinbutton "Quantity"/), value: 3 });
    expect(three).toMatch(/spinbutton "Quantity" \[ref=e\d+\].* value=3 \(was: value=1\)/);
    const gift = refOf(
      await macpilot.ok('find_elements', { app, role: 'checkbox', name: 'Gift wrap', match: 'exact' }),
      /checkbox "Gift wrap"/,
    );
    await macpilot.ok('set_value', { ref: gift, value: true });
    expect(await macpilot.ok('get_element', { ref: gift })).toMatch(/states: .*checked/);
    // A select takes one of its options by name; the page hears its change event.
    const colour = refOf(await macpilot.ok('find_elements', { app, role: 'combobox' }), /combobox "Colour"/);
    expect(await macpilot.ok('get_element', { ref: colour })).toContain('value: "Red"');
    await macpilot.ok('set_value', { ref: colour, value: 'blue' });
    await statusShows('Colour: Blue');
    expect(await macpilot.ok('get_element', { ref: colour })).toContain('value: "Blue"');
    const purple = await macpilot.call('set_value', { ref: colour, value: 'Purple' });
    expect(purple.text).toContain(
      'it has no option "Purple"\nNext: use one of its options: "Red", "Green", "Blue"',
    );

    const clicked = await placeOrder(macpilot, app);
    expect(clicked).toContain(
      '(its "press" action; macpilot moved neither the pointer nor the keyboard focus)',
    );
    await statusShows('Placed 3 of Tea');
  });

  test('a button far down the page is scrolled to, then clicked', async () => {
    const ref = await scrolledToFarButton(macpilot, app);
    expect(await macpilot.ok('get_element', { ref })).not.toMatch(/states: .*offscreen/);
    expect(await macpilot.ok('click_element', { ref })).toContain('Clicked button "Far away button"');
    await statusShows('Far away clicked');
  });

  test("typing into Firefox's address bar, whose text it does not expose, warns of nothing it cannot see", async () => {
    const bar = await macpilot.ok('find_elements', {
      app,
      role: 'combobox',
      name: 'Search',
      match: 'contains',
    });
    const typed = await macpilot.ok('type_text', {
      ref: refOf(bar, /combobox "[^"]*Search[^"]*"/),
      text: 'hello',
    });
    expect(typed).toContain('typed 5 characters');
    expect(typed).not.toContain('The field now holds');
    await macpilot.ok('press_key', { key: 'Escape' });
  });
});
