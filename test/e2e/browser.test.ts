/**
 * Debian's Chromium through a real MCP client. Started while the desktop's accessibility switch was off, it has
 * windows but no tree: list_apps says so, and relaunch_app restarts it with its tab and its tree. Then its page
 * as an agent needs it (landmarks, labelled fields, required states, links with their URLs, a status region),
 * a field set as a person types it (the page hears its input events), buttons clicked, a button far down the
 * page scrolled to and clicked, and the switch itself as doctor reports it and MACPILOT_ACCESSIBILITY=leave
 * turns it off again.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { assistiveNote } from '../../src/platforms/linux/helper/atspi/assistive.js';
import { startChromium } from '../support/chromium.js';
import { CLI, type Macpilot, startMacpilot } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { temporaryFolder } from '../support/temp.js';
import { placeOrder, scrolledToFarButton, webPage } from '../support/web-page.js';
import { eventually, refOf } from '../support/text.js';
import { windowOfPid } from '../support/xwindows.js';

const env = inject('desktopEnv');
const folder = temporaryFolder('macpilot-browser-');
const auditFile = join(folder, 'audit.jsonl');
// A person's desktop: the test desktop's QT_ACCESSIBILITY=1 (for Qt apps) would turn Chromium's tree on too.
const { QT_ACCESSIBILITY: _qt, ...personal } = env;
const processes = new Processes(personal);

const chromium = (url: string) => startChromium(processes, join(folder, 'profile'), url);

const STATUS = ['--session', '--dest', 'org.a11y.Bus', '--object-path', '/org/a11y/bus', '--method'];
const setSwitch = (on: boolean) =>
  execFileSync(
    'gdbus',
    ['call', ...STATUS, 'org.freedesktop.DBus.Properties.Set', 'org.a11y.Status', 'IsEnabled', `<${on}>`],
    { env },
  );
const switchIsOn = () =>
  execFileSync(
    'gdbus',
    ['call', ...STATUS, 'org.freedesktop.DBus.Properties.Get', 'org.a11y.Status', 'IsEnabled'],
    {
      env,
      encoding: 'utf8',
    },
  ).includes('true');

async function doctor(settings: Record<string, string> = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'doctor'], {
    env: { ...env, ...settings },
  });
  return stdout;
}

let macpilot: Macpilot;
let app: string;

beforeAll(async () => {
  // The desktop as a person's is before any screen reader ran: the switch off, and no note of macpilot's.
  rmSync(assistiveNote(env), { force: true });
  setSwitch(false);
  const browser = chromium(webPage('order-form.html'));
  await eventually('the Chromium window', async () => windowOfPid(env, browser.pid));
  // The Chromium relaunch_app starts inherits the server's environment: its temporary files go to this folder.
  macpilot = await startMacpilot({
    ...env,
    MACPILOT_CONSENT: 'allow',
    TMPDIR: folder,
    MACPILOT_AUDIT_LOG: auditFile,
  });
  app = String(browser.pid);
});

afterAll(async () => {
  await macpilot.close();
  await processes.stopAll();
  setSwitch(true);
  rmSync(assistiveNote(env), { force: true });
});

describe('a Chromium started with accessibility off', () => {
  test('list_apps lists it with its window but no tree; relaunch_app restarts it with its tab, and its page is read', async () => {
    const apps = await macpilot.ok('list_apps');
    expect(apps).toMatch(
      new RegExp(
        `1 app with windows but no accessibility tree .*\\n- Chromium \\(pid ${app}\\): window \\d+ "Order form - Chromium"`,
      ),
    );
    // The server turned the switch on as it started, for the apps started from now on.
    expect(switchIsOn()).toBe(true);
    // Named, it is said to run without a tree, and how it gets one.
    const unread = await macpilot.call('find_elements', { app, text: 'Place order' });
    expect(unread.isError).toBe(true);
    expect(unread.text).toMatch(
      /^"Chromium" \(pid \d+\) runs, with windows, but exposes no accessibility tree/,
    );
    expect(unread.text).toContain('relaunch_app with name "Chromium" restarts it');

    const relaunched = await macpilot.ok('relaunch_app', { name: 'Chromium' });
    const pid = Number(/Chromium \(pid (\d+)\) started again/.exec(relaunched)?.[1]);
    processes.track(pid);
    expect(relaunched).toContain(`pid ${app} quit`);
    expect(windowOfPid(env, Number(app))).toBeUndefined();
    app = String(pid);
    // The tab it had is back, read through its tree.
    const found = await eventually('the page in its tree', async () => {
      const out = await macpilot.call('find_elements', { app, text: 'Place order', role: 'button' });
      return out.isError || !out.text.includes('button "Place order"') ? undefined : out.text;
    });
    expect(found).toMatch(/button "Place order" \[ref=e\d+\]/);
    expect(await macpilot.ok('list_apps')).not.toContain('no accessibility tree');
  });
});

describe('its page, as an agent needs it', () => {
  test('landmarks, a heading, labelled fields with their states, a link with its URL, the status region', async () => {
    const tree = await macpilot.ok('snapshot_ui', { app });
    expect(tree).toMatch(/- document "Order form" \[ref=e\d+\]/);
    expect(tree).toMatch(/- landmark "main" \[ref=e\d+\]/);
    expect(tree).toMatch(/- landmark "Site" \[ref=e\d+\]/);
    expect(tree).toMatch(/- heading "Order form" \[ref=e\d+\] level=1/);
    expect(tree).toMatch(/- textbox "Item" \[ref=e\d+\].* required/);
    expect(tree).toMatch(/- spinbutton "Quantity" \[ref=e\d+\].* value=1/);
    expect(tree).toMatch(/- link "Help" \[ref=e\d+\].* value="https:\/\/example\.com\/help"/);
    expect(tree).toMatch(/- statusbar \[ref=e\d+\]/);
    expect(tree).toMatch(/- text "Nothing ordered" \[ref=e\d+\]/);
    // Read on its own, the status region shows the message its child holds.
    const status = await macpilot.ok('get_element', { ref: refOf(tree, /- statusbar/) });
    expect(status).toContain('text shown: "Nothing ordered"');
  });

  test('set_value types into a web field, so the page hears it; a number is set; the button places the order', async () => {
    const fields = await macpilot.ok('find_elements', { app, role: 'textbox', name: 'Item', match: 'exact' });
    // Typed, a value too long for one action is refused before a key goes out, in set_value's words.
    const long = await macpilot.call('set_value', {
      ref: refOf(fields, /textbox "Item"/),
      value: 'x'.repeat(70_000),
    });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(/^The value of textbox "Item" \[ref=e\d+\] was not set\./);
    expect(long.text).toMatch(
      /so the 70000 characters would be typed, which would take 70.0 s, while one action may take at most/,
    );
    expect(long.text).toMatch(/Next: set a value of at most \d+ characters/);
    expect(long.text).not.toMatch(/type_text|text in parts/);
    // A field that takes fewer characters than the value given: the call fails, saying how many it kept.
    const code = refOf(
      await macpilot.ok('find_elements', { app, role: 'textbox', name: 'Code', match: 'exact' }),
      /textbox "Code"/,
    );
    const cut = await macpilot.call('set_value', { ref: code, value: 'ABCDEFG' });
    expect(cut.isError).toBe(true);
    expect(cut.text).toMatch(
      /^textbox "Code" \[ref=e\d+\] kept only the first 4 characters of the 7 given\./,
    );
    expect(cut.text).not.toMatch(/EFG|"E"/);
    expect(await macpilot.ok('get_element', { ref: code })).toMatch(/^value: "ABCD"$/m);
    const lastLine = readFileSync(auditFile, 'utf8').trim().split('\n').at(-1) ?? '{}';
    expect(JSON.parse(lastLine)).toMatchObject({
      tool: 'set_value',
      outcome: 'failed',
      error: 'value_too_long',
    });
    const set = await macpilot.ok('set_value', { ref: refOf(fields, /textbox "Item"/), value: 'Tea' });
    expect(set).toContain('the app takes no text set through the accessibility layer');
    // The page mirrors its field into the status region from its input listener: it heard the typing.
    expect(set).toMatch(/\+ text "Item: Tea"/);

    const quantity = await macpilot.ok('find_elements', { app, role: 'spinbutton' });
    await macpilot.ok('set_value', { ref: refOf(quantity, /spinbutton "Quantity"/), value: 3 });
    expect(await macpilot.ok('get_element', { ref: refOf(quantity, /spinbutton "Quantity"/) })).toMatch(
      /^value: 3$/m,
    );
    // A number field without min and max bounds nothing (Chromium says NaN..0), and takes what is typed.
    const age = refOf(quantity, /spinbutton "Age"/);
    // Empty, it reads empty, not the 0 Chromium's Value interface says.
    expect(await macpilot.ok('get_element', { ref: age })).toMatch(/^value: ""$/m);
    for (const value of [42, -5]) {
      await macpilot.ok('set_value', { ref: age, value });
      expect(await macpilot.ok('get_element', { ref: age })).toMatch(new RegExp(`^value: ${value}$`, 'm'));
    }
    // A web checkbox is set through its own action (Chromium names it "check").
    const gift = refOf(
      await macpilot.ok('find_elements', { app, role: 'checkbox', name: 'Gift wrap', match: 'exact' }),
      /checkbox "Gift wrap"/,
    );
    // A check box's value is true or false, as a boolean or as the word (what a CLI or a JSON-less client sends).
    const yes = await macpilot.call('set_value', { ref: gift, value: 'yes' });
    expect(yes.isError).toBe(true);
    expect(yes.text).toContain('is on or off: its value is true or false, not "yes"');
    const checked = await macpilot.ok('set_value', { ref: gift, value: 'True' });
    expect(checked).toContain('Set the value of checkbox "Gift wrap"');
    // macpilot touched neither pointer nor focus, but the page focuses what it checks: the answer says so.
    expect(checked).toMatch(
      /The app then moved its keyboard focus itself, to checkbox "Gift wrap" \[ref=e\d+\]\./,
    );
    expect(await macpilot.ok('get_element', { ref: gift })).toMatch(/checked/);
    // A select takes one of its options by name; the page hears its change event.
    const colour = refOf(await macpilot.ok('find_elements', { app, role: 'combobox' }), /combobox "Colour"/);
    const blue = await macpilot.ok('set_value', { ref: colour, value: 'Blue' });
    expect(blue).toMatch(/combobox "Colour" \[ref=e\d+\].* value="Blue"/);
    await eventually('the change heard', async () => {
      const out = await macpilot.call('find_elements', { app, text: 'Colour: Blue' });
      return /text "Colour: Blue"/.test(out.text) ? true : undefined;
    });
    const clicked = await placeOrder(macpilot, app);
    // The page's own press: the person's pointer stays where it was, and the page hears a click all the same.
    expect(clicked).toContain('Clicked button "Place order" [ref=e');
    expect(clicked).toContain(
      '(its "press" action; macpilot moved neither the pointer nor the keyboard focus)',
    );
    // The page's answer, in the status region: Chromium may update its tree after the click's answer settled
    // (1 run in 5 here), so it is looked for there too.
    await eventually('the order placed', async () => {
      if (/\+ text "Placed 3 of Tea"/.test(clicked)) return true;
      const out = await macpilot.call('find_elements', { app, text: 'Placed 3 of Tea' });
      return /text "Placed 3 of Tea"/.test(out.text) ? true : undefined;
    });
  });

  test('in the background, set_value on a web field (which only typing fills) is refused with the call that types it', async () => {
    const quiet = await startMacpilot({ ...env, MACPILOT_INPUT: 'background' });
    try {
      const fields = await quiet.ok('find_elements', { app, role: 'textbox', name: 'Item', match: 'exact' });
      const refused = await quiet.call('set_value', {
        ref: refOf(fields, /textbox "Item"/),
        value: 'Coffee',
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('takes no text set through the accessibility layer, only typing');
      expect(refused.text).toContain('type_text (this ref, clear_first: true, background: false)');
      // type_text into it in the background is refused for the same reason, in the same words.
      const typed = await quiet.call('type_text', { ref: refOf(fields, /textbox "Item"/), text: 'Coffee' });
      expect(typed.isError).toBe(true);
      expect(typed.text).toContain('takes no text set through the accessibility layer, only typing');
      expect(await quiet.ok('find_elements', { app, text: 'Coffee' })).toMatch(/^0 matches/);
    } finally {
      await quiet.close();
    }
  });

  test('Tab to a button off screen scrolls the page: the answer names the button that took the focus', async () => {
    const place = refOf(
      await macpilot.ok('find_elements', { app, role: 'button', name: 'Place order', match: 'exact' }),
      /button "Place order"/,
    );
    await macpilot.ok('focus_element', { ref: place });
    const tabbed = await macpilot.ok('press_key', { key: 'tab' });
    expect(tabbed).toMatch(/^[+~] button "Far away button" \[ref=e\d+\] focused/m);
    expect(await macpilot.ok('get_focused_element', { app })).toContain('button "Far away button"');
  });

  test('what is typed into fields named by their own text stays out of the audit log, targets included', async () => {
    const textboxes = await macpilot.ok('find_elements', { app, role: 'textbox', include_hidden: true });
    // The unnamed textboxes: the self-labelled input, then the editable area (both above the form).
    const [self, notes] = [...textboxes.matchAll(/^- textbox \[ref=(e\d+)\]/gm)].map((m) => m[1] ?? '');
    expect([self, notes].every(Boolean), textboxes).toBe(true);
    await macpilot.ok('set_value', { ref: self ?? '', value: 'SECRETA' });
    await macpilot.ok('type_text', { ref: self ?? '', text: 'SECRETB' });
    await macpilot.ok('type_text', { ref: notes ?? '', text: 'SECRETC' });
    const inner = await eventually('the text typed into the editable area', async () => {
      const out = await macpilot.call('find_elements', { app, text: 'SECRETC', role: 'text' });
      return /\[ref=e\d+\]/.test(out.text) ? refOf(out.text, /text "SECRETC"/) : undefined;
    });
    await macpilot.ok('click_element', { ref: inner });
    // An editable area with no field's role (a contenteditable div): its text is typed text too.
    const area = refOf(await macpilot.ok('find_elements', { app, name: 'Draft', match: 'exact' }), /"Draft"/);
    await macpilot.ok('type_text', { ref: area, text: 'SECRETD' });
    const draft = await eventually('the text typed into the draft', async () => {
      const out = await macpilot.call('find_elements', { app, text: 'SECRETD', role: 'text' });
      return /\[ref=e\d+\]/.test(out.text) ? refOf(out.text, /text "SECRETD"/) : undefined;
    });
    await macpilot.ok('click_element', { ref: draft });
    // A call that fails on that text keeps the element it reached for the log: by its role alone as well.
    const bogus = await macpilot.call('perform_action', { ref: draft, action: 'bogus' });
    expect(bogus.isError).toBe(true);
    const audit = readFileSync(auditFile, 'utf8');
    expect(audit).toMatch(
      /"tool":"perform_action","app":"Chromium","target":\{"role":"text"\},"outcome":"failed"/,
    );
    expect(audit).toContain('"tool":"click_element"');
    expect(audit).not.toMatch(/SECRET/);
  });

  test('a button far down the page is scrolled to, then clicked', async () => {
    const ref = await scrolledToFarButton(macpilot, app);
    const clicked = await macpilot.ok('click_element', { ref });
    expect(clicked).toContain('Clicked button "Far away button"');
    // The status region is scrolled out of view now: the page said it, off screen.
    const status = await macpilot.ok('find_elements', {
      app,
      text: 'Far away clicked',
      include_hidden: true,
    });
    expect(status).toMatch(/text "Far away clicked" \[ref=e\d+\]/);
  });
});

describe("the desktop's accessibility switch", () => {
  test('doctor says macpilot turned it on; "leave" turns it off again, naming where it was set; "on" turns it on again', async () => {
    expect(await doctor()).toMatch(/accessibility switch on, turned on by macpilot \(at [0-9T:.-]+Z\)/);
    expect(await doctor({ MACPILOT_ACCESSIBILITY: 'leave' })).toContain(
      'accessibility switch turned off again, as the setting "leave" (the environment variable MACPILOT_ACCESSIBILITY) asks (macpilot had turned it on)',
    );
    expect(switchIsOn()).toBe(false);
    // Off by the person's choice now: leave leaves it.
    expect(await doctor({ MACPILOT_ACCESSIBILITY: 'leave' })).toContain(
      'accessibility switch off, left so by the setting "leave" (the environment variable MACPILOT_ACCESSIBILITY)',
    );
    expect(await doctor()).toContain('accessibility switch on, turned on by macpilot (now)');
    expect(switchIsOn()).toBe(true);
    // Set in the config file, the file is named.
    const file = join(folder, 'config.json');
    writeFileSync(file, JSON.stringify({ accessibility: 'leave' }));
    expect(await doctor({ MACPILOT_CONFIG: file })).toContain(
      `accessibility switch turned off again, as the setting "leave" ("accessibility" in ${file}) asks`,
    );
    expect(await doctor()).toContain(
      'to turn it off again: set MACPILOT_ACCESSIBILITY=leave where macpilot is started',
    );
  });
});
