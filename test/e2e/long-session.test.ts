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

test('a coordinate X11 cannot carry is refused with the reason, and the session goes on', async () => {
  const refused = await macpilot.call('move_mouse', { x: -37473, y: 0 });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('beyond what X11 can address');
  const dragged = await macpilot.call('drag', { from: { x: 10, y: 10 }, to: { x: 99_999, y: 10 } });
  expect(dragged.isError).toBe(true);
  // Each of these needs the helper's X connection; a half-written request used to leave it wedged.
  for (const name of ['get_clipboard', 'clear_clipboard', 'list_windows', 'list_apps']) {
    const answer = await macpilot.client.callTool({ name, arguments: {} }, undefined, { timeout: 5_000 });
    expect(answer.isError, `${name}: ${JSON.stringify(answer.content)}`).toBeFalsy();
  }
  const moved = await macpilot.ok('move_mouse', { x: 200, y: 150 });
  expect(moved).toContain('Moved the pointer to 200,150');
});
