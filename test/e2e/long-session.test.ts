/**
 * A long session across apps: what one server has seen and done must not hide what a new app shows. Found by
 * hand: after any action in mousepad, a gnome-calculator launched later showed only its window for seconds in
 * the first server's snapshots while a fresh server saw its keypad.
 */
import { afterAll, expect, inject, test } from 'vitest';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const { macpilot, launch } = useMacpilot(env);

test('a snapshot of an app launched after an action in another app shows what a fresh server sees', async () => {
  await launch('mousepad');
  const editors = await eventually('the mousepad editor', async () => {
    const out = await macpilot.call('find_elements', { app: 'mousepad', role: 'textbox' });
    return !out.isError && /multiline/.test(out.text) ? out.text : undefined;
  });
  await macpilot.ok('type_text', { ref: refOf(editors, /multiline/), text: 'typed before the calculator' });

  await launch('Calculator', { timeout_ms: 30_000 });
  const fresh = await startMacpilot(env);
  afterAll(() => fresh.close());
  await eventually('the keypad, seen by a fresh server', async () => {
    const out = await fresh.call('snapshot_ui', { app: 'gnome-calculator' });
    return !out.isError && out.text.includes('button "7"') ? true : undefined;
  });
  const seen = await macpilot.ok('snapshot_ui', { app: 'gnome-calculator' });
  expect(seen).toContain('button "7"');
});
