/**
 * Keyboard layouts: type_text types exactly the text asked for under German (QWERTZ), French (AZERTY) and
 * Russian layouts, switched with setxkbmap while one macpilot session runs; press_key names keys by what they
 * type. The layout goes back to us after, for the files that follow on the shared desktop.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { zenityEntry } from '../support/zenity.js';

const env = inject('desktopEnv');
const { macpilot, processes } = useMacpilot(env);
const setLayout = (layout: string) => execFileSync('setxkbmap', [layout], { env, timeout: 5000 });
afterAll(() => setLayout('us'));

/** Letters each layout moves (z and y, a and q, m), characters on AltGr or dead keys, and ones it lacks. */
const TEXT = 'Größe café déjà Привет @€{}|~^` zy aq m;';

test('type_text types the same text under de, fr and ru, the layout switched mid-session', async () => {
  const { zenity, field, value } = await zenityEntry(macpilot, processes, 'macpilot layouts');
  for (const layout of ['de', 'fr', 'ru', 'us']) {
    setLayout(layout);
    await macpilot.ok('type_text', { ref: field, text: TEXT, clear_first: true });
    expect(await value(), `typed under ${layout}`).toBe(TEXT);
  }
  // What the app itself got: zenity prints the entry's text when OK is pressed.
  setLayout('fr');
  await macpilot.ok('type_text', { ref: field, text: TEXT, clear_first: true, submit: true });
  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe(`${TEXT}\n`);
});

test('press_key names keys by what they type: z is z under QWERTZ, q is q under AZERTY', async () => {
  const { zenity, field, value } = await zenityEntry(macpilot, processes, 'macpilot keys');
  for (const [layout, key] of [
    ['de', 'z'],
    ['fr', 'q'],
    ['fr', 'shift+a'],
  ] as const) {
    setLayout(layout);
    await macpilot.ok('type_text', { ref: field, text: '-', clear_first: true });
    await macpilot.ok('press_key', { key });
    expect(await value(), `${key} under ${layout}`).toBe(`-${key === 'shift+a' ? 'A' : key}`);
  }
  await processes.stop(zenity.pid);
});

test('a key name no keyboard has is refused with the nearest names', async () => {
  const refused = await macpilot.call('press_key', { key: 'entr' });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('Unknown key "entr"; did you mean "enter"');
});
