/**
 * The console in a real browser (Debian's Chromium, headless, driven by playwright-core): opened once through
 * its one-time link, it shows the click an MCP client makes, the person allows a consent question there (the
 * client's call goes on and the app really quits), denies another (the app runs on), and Stop cancels a long
 * type_text (the text stops growing) until Resume. A used link, a missing cookie and a foreign Origin are
 * refused, and the page asks for nothing beyond 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { CLI, startMacpilot, useMacpilot } from '../support/mcp.js';
import { startNotificationDaemon } from '../support/daemons.js';
import { eventually, refOf } from '../support/text.js';

const control = mkdtempSync(join(tmpdir(), 'macpilot-control-'));
const profile = mkdtempSync(join(tmpdir(), 'macpilot-console-browser-'));
// Its own kill switch folder: the console watches this file's server, and Stop reaches no other.
// Consent asked as a person's server asks it (the test desktop allows without asking).
const env = { ...inject('desktopEnv'), MACPILOT_CONTROL_DIR: control, MACPILOT_CONSENT: 'ask' };
// A client without elicitation: before the console, a consent question had no one to ask.
const { macpilot, processes, launch } = useMacpilot(env);

let browser: Browser;
let page: Page;
let link: string;
let origin: string;
const requested: string[] = [];
/** What the page asked for and was refused (the tests' own 403 probes go through fetch, not the page). */
const failedByPage: string[] = [];

beforeAll(async () => {
  const site = processes.start(process.execPath, [CLI, 'console', '--no-open']);
  link = await eventually('the console link', async () => /(http:\/\/\S+)/.exec(site.stdout())?.[1]);
  origin = new URL(link).origin;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    // Off the test desktop: no display, no session bus, a profile of its own.
    // Its temporary files too, which a browser that ends abruptly leaves behind.
    env: { HOME: profile, TMPDIR: profile, PATH: process.env.PATH ?? '/usr/bin:/bin' },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const context = await browser.newContext();
  context.on('request', (request) => requested.push(request.url()));
  context.on('response', (response) => {
    // An allow refused because an agent was acting is the console working (409, said on the card).
    const byDesign = response.status() === 409 && response.url().endsWith('/console/answer');
    if (response.status() >= 400 && !byDesign) failedByPage.push(`${response.status()} ${response.url()}`);
  });
  page = await context.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(control, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

/** The timeline's row of the latest call of `tool`, once it has ended with `outcome`. */
const row = (tool: string, outcome: string) =>
  page.locator(`#timeline li.call.${outcome}[data-tool="${tool}"]`).first();

async function question(action: RegExp) {
  const card = page.locator('#questions .question', { hasText: action });
  await card.waitFor({ timeout: 15_000 });
  return card;
}

describe('the console', () => {
  test('opens once through its link, and the page address keeps no secret', async () => {
    await page.goto(link);
    // The link's page goes on to the console's own address, which holds no key.
    await page.waitForURL(`${origin}/console/`);
    expect(page.url()).toBe(`${origin}/console/`);
    await page.locator('#status', { hasText: '1 macpilot server watched. Agents may act.' }).waitFor();
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('used already');
  });

  test('shows the click an MCP client makes: the tool, the target, the outcome and the screen before and after', async () => {
    const zenity = processes.start('zenity', ['--info', '--title', 'Console click', '--text', 'Watched']);
    const tree = await eventually('the zenity dialog', async () => {
      const out = await macpilot.call('snapshot_ui', { app: String(zenity.pid) });
      return out.text.includes('button "OK"') ? out.text : undefined;
    });
    const clicked = await macpilot.call('click_element', { ref: refOf(tree, /button "OK"/) });
    expect(clicked.isError, clicked.text).toBe(false);
    const answeredAt = performance.now();
    const shown = row('click_element', 'ok');
    await shown.waitFor({ timeout: 5000 });
    console.log(
      `[perf] console: the click shown ${Math.round(performance.now() - answeredAt)} ms after its answer`,
    );
    await expect(zenity.exited).resolves.toBe(0);
    expect(await shown.getAttribute('data-session')).toMatch(/^macpilot-e2e #\d+$/);
    expect(await shown.locator('.app').textContent()).toBe('zenity');
    expect(await shown.locator('.target').textContent()).toBe('button "OK"');
    // The pictures follow the call's end, once taken.
    await shown.locator('figure img').nth(1).waitFor();
    expect(await shown.locator('figure img').count()).toBe(2);
    // The live screen shows the desktop.
    // Read through the element, not waitForFunction: the page's CSP forbids the eval that polls with.
    await expect
      .poll(() =>
        page.locator('#screen').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
  });

  test('a consent question allowed in the console lets the call go on; one denied keeps the app running', async () => {
    const first = processes.start('zenity', ['--info', '--title', 'Quit me', '--text', 'Allowed']);
    await eventually('the first dialog', async () =>
      (await macpilot.call('list_windows', {})).text.includes('Quit me') ? true : undefined,
    );
    const daemon = await startNotificationDaemon(processes, env);
    const allowed = macpilot.call('quit_app', { name: String(first.pid) });
    const asked = await question(/quit/i);
    expect(await asked.locator('.who').textContent()).toContain('quit_app');
    // The question is said on the desktop too, where a console behind other windows would hide it.
    const notice = await eventually('the desktop notice of the question', async () => {
      const out = await macpilot.call('find_elements', { app: String(daemon), text: 'a question for you' });
      return out.isError || out.text.startsWith('0 matches') ? undefined : out.text;
    });
    expect(notice).toContain('macpilot: a question for you');
    expect(await macpilot.ok('find_elements', { app: String(daemon), text: 'Answer in' })).toMatch(
      /An agent asks to quit an app \(zenity \(pid \d+\)\)\. Answer in macpilot's console\./,
    );
    expect(await asked.locator('.undo').textContent()).toBe(
      'The agent cannot take it back with its undo tool.',
    );
    // An allow within a second of an agent's action is not taken (it could be the agent's click): the person, told
    // so on the card, answers again.
    await asked.getByRole('button', { name: 'Allow once' }).click();
    const refusedOnce = asked.locator('.refused', { hasText: 'an agent is acting right now' });
    const allowed_ = await Promise.race([
      asked.waitFor({ state: 'detached' }).then(() => 'taken' as const),
      refusedOnce.waitFor().then(() => 'refused' as const),
    ]).catch(() => 'taken' as const);
    if (allowed_ === 'refused') {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await asked.getByRole('button', { name: 'Allow once' }).click();
    }
    const quit = await allowed;
    expect(quit.isError, quit.text).toBe(false);
    await expect(first.exited).resolves.not.toBeUndefined();
    await asked.waitFor({ state: 'detached' });

    const second = processes.start('zenity', ['--info', '--title', 'Keep me', '--text', 'Denied']);
    await eventually('the second dialog', async () =>
      (await macpilot.call('list_windows', {})).text.includes('Keep me') ? true : undefined,
    );
    const denied = macpilot.call('quit_app', { name: String(second.pid) });
    await (await question(/quit/i)).getByRole('button', { name: 'Deny' }).click();
    const refused = await denied;
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('The user did not allow');
    expect((await macpilot.call('list_windows', {})).text).toContain('Keep me');
    await row('quit_app', 'refused').waitFor();
    await processes.stop(second.pid);
  });

  test('a server started while the console is open is watched from its first call: its question is asked there', async () => {
    const zenity = processes.start('zenity', ['--info', '--title', 'Fresh server', '--text', 'Kept']);
    await eventually('the dialog', async () =>
      (await macpilot.call('list_windows', {})).text.includes('Fresh server') ? true : undefined,
    );
    const fresh = await startMacpilot(env);
    try {
      const asked = fresh.call('quit_app', { name: String(zenity.pid) });
      await (await question(/quit/i)).getByRole('button', { name: 'Deny' }).click();
      const refused = await asked;
      expect(refused.text).toContain('The user did not allow');
    } finally {
      await fresh.close();
      await processes.stop(zenity.pid);
    }
  });

  test('Stop (its key on the page) cancels a long type_text, the text stops growing, and Resume lets agents act', async () => {
    const pid = await launch('mousepad');
    const editor = refOf(
      await macpilot.ok('find_elements', { app: String(pid), role: 'textbox' }),
      /multiline/,
    );
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN';
    const typing = macpilot.call('type_text', { ref: editor, text, delay_ms: 200 });
    await row('type_text', 'running').waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.keyboard.press('Escape');
    const answer = await typing;
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('Stopped by the person at the desk');
    expect(answer.text).toContain("pressed Stop in macpilot's console");
    const value = async () =>
      JSON.parse(
        /^value: (.*)$/m.exec(await macpilot.ok('get_element', { ref: editor }))?.[1] ?? '""',
      ) as string;
    const atStop = await value();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await value()).toBe(atStop);
    expect(atStop.length).toBeLessThan(text.length);
    // What was typed shows as its length, never as the text.
    await row('type_text', 'stopped').waitFor();
    expect(await page.locator('#timeline').innerText()).not.toContain(atStop.slice(0, 5));
    await page.locator('body.paused').waitFor();
    const paused = await macpilot.call('press_key', { key: 'End' });
    expect(paused.text).toContain('press Resume there');

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('body:not(.paused)').waitFor();
    const pressed = await macpilot.call('press_key', { key: 'End' });
    expect(pressed.isError, pressed.text).toBe(false);
  });

  test("a workflow shows its steps' progress while it runs, and each step as a call of its own", async () => {
    const running = macpilot.call('run_workflow', {
      steps: [
        { tool: 'get_clipboard' },
        { tool: 'get_clipboard', wait_after_ms: 3000 },
        { tool: 'list_displays' },
      ],
    });
    const progress = page.locator('#timeline li.call.running[data-tool="run_workflow"] .progress');
    await progress.waitFor();
    expect(await progress.textContent()).toMatch(/ of 3: step \d: get_clipboard$/);
    const done = await running;
    expect(done.isError, done.text).toBe(false);
    await row('run_workflow', 'ok').waitFor();
    await row('list_displays', 'ok').waitFor();
  });

  test('refuses what does not come from its own page, and the page asked for nothing beyond 127.0.0.1', async () => {
    expect((await fetch(`${origin}/console/`)).status).toBe(403);
    expect((await fetch(`${origin}/console/open?key=wrong`, { redirect: 'manual' })).status).toBe(403);
    const cookies = await page.context().cookies();
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict', domain: '127.0.0.1' });
    expect((await fetch(`${origin}/console/`, { headers: { cookie } })).status).toBe(200);
    const foreign = await fetch(`${origin}/console/stop`, {
      method: 'POST',
      headers: { cookie, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((url) => new URL(url).hostname !== '127.0.0.1')).toEqual([]);
    // Nothing the page loads is missing (a browser asks for an icon unless the page names one).
    expect(failedByPage).toEqual([]);
  });
});
