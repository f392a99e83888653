/**
 * The console is the person's, also when it is open in a browser on the desktop agents operate: an agent's walk
 * shows the console's document and nothing in it (no Stop or Allow button, no call rows naming apps), and a path
 * into it is refused, so that an agent can neither answer its own question nor read what the app lists hide.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { startChromium } from '../support/chromium.js';
import { CLI, useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually, refOf } from '../support/text.js';

const control = mkdtempSync(join(tmpdir(), 'macpilot-control-'));
const env = { ...inject('desktopEnv'), MACPILOT_CONTROL_DIR: control };
const { macpilot, processes } = useMacpilot(env);
let app: string;
let documentRef: string;

beforeAll(async () => {
  const site = processes.start(process.execPath, [CLI, 'console', '--no-open']);
  const link = await eventually('the console link', async () => /(http:\/\/\S+)/.exec(site.stdout())?.[1]);
  const browser = startChromium(
    processes,
    join(temporaryFolder('macpilot-console-guard-'), 'profile'),
    link ?? '',
  );
  app = String(browser.pid);
  const found = await eventually(
    "the console's page in Chromium",
    async () => {
      const out = await macpilot.call('find_elements', { app, role: 'document', name: 'macpilot console' });
      return !out.isError && /document "macpilot console"/.test(out.text) ? out.text : undefined;
    },
    45_000,
  );
  documentRef = refOf(found, /document "macpilot console"/);
}, 90_000);

afterAll(() => rmSync(control, { recursive: true, force: true }));

test("a walk of the browser shows the console's document, and nothing inside it", async () => {
  const tree = await macpilot.ok('snapshot_ui', { app });
  expect(tree).toMatch(/document "macpilot console" \[ref=e\d+\]/);
  expect(tree).not.toContain('Stop agents');
  for (const name of ['Stop agents', 'Resume']) {
    const found = await macpilot.ok('find_elements', { app, name, include_hidden: true });
    expect(found, name).toMatch(/^0 matches/);
  }
});

test("a path into the console is refused, however it names the document: its buttons are the person's", async () => {
  const element = await macpilot.ok('get_element', { ref: documentRef });
  const path = /^path: (.+)$/m.exec(element)?.[1] ?? '';
  expect(path).toMatch(/\/document(\["macpilot console"\])?$/);
  for (const document of [
    path,
    path.replace(/document[^/]*$/, 'document[0]'),
    path.replace(/document[^/]*$/, 'document["macpilot console"]'),
  ]) {
    const refused = await macpilot.call('click_element', { path: `${document}/button["Stop agents"]` });
    expect(refused.isError, document).toBe(true);
    expect(refused.text).toContain("that element is in macpilot's console, which is the person's");
  }
});

test('an element of the console met by a hit test is refused too', async () => {
  const { bounds } = (
    await macpilot.client.callTool({ name: 'get_element', arguments: { ref: documentRef } })
  ).structuredContent as { bounds: { x: number; y: number; width: number; height: number } };
  const hit = await macpilot.call('element_at', { x: bounds.x + 40, y: bounds.y + 20 });
  expect(hit.isError, hit.text).toBe(true);
  expect(hit.text).toContain("macpilot's console");
});
