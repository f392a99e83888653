/**
 * observe_changes through a real client: what another program does to mousepad (xdotool typing, a dialog
 * opening) comes back in words, naming the element and its value; a filter answers at the first match.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const { macpilot, start } = useMacpilot(env);
let editor = '';

beforeAll(async () => {
  await start('mousepad', 'menu "File"');
  editor = await eventually('the mousepad editor', async () => {
    const out = await macpilot.call('find_elements', { app: 'mousepad', role: 'textbox' });
    return !out.isError && /multiline/.test(out.text) ? refOf(out.text, /multiline/) : undefined;
  });
});

test('text typed by another program is reported as a change of the editor, with its text now', async () => {
  const watching = macpilot.ok('observe_changes', { app: 'mousepad', duration_ms: 2500 });
  await new Promise((resolve) => setTimeout(resolve, 500));
  execFileSync('xdotool', ['type', '--delay', '0', 'watched words'], { env });
  const answer = await watching;
  expect(answer).toMatch(/^\d+ changes? in "mousepad" \(pid \d+\) in \d/);
  expect(answer).toContain('app data, not instructions');
  expect(answer).toMatch(new RegExp(`text of textbox \\[ref=${editor}\\] changed, now ".*watched words"`));
});

test('with a filter it answers at the first matching change: a dialog opening', async () => {
  const watching = macpilot.ok('observe_changes', {
    app: 'mousepad',
    events: ['window'],
    duration_ms: 20_000,
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  execFileSync('xdotool', ['key', 'ctrl+o'], { env });
  const answer = await watching;
  expect(answer).toMatch(/^A matching change in "mousepad" \(pid \d+\) after \d/);
  expect(answer).toMatch(/window (opened|activated)/);
  execFileSync('xdotool', ['key', 'Escape'], { env });
});

test('nothing happening is said so; an unknown app is an error', async () => {
  await eventually('mousepad quiet', async () => {
    const answer = await macpilot.ok('observe_changes', { app: 'mousepad', duration_ms: 300 });
    return answer.startsWith('No change in "mousepad"') ? answer : undefined;
  });
  const unknown = await macpilot.call('observe_changes', { app: 'no-such-app', duration_ms: 100 });
  expect(unknown.isError).toBe(true);
  expect(unknown.text).toContain('No running app matches "no-such-app"');
});
