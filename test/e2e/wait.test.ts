/** wait_for through the MCP client on zenity and mousepad, and actions that settle on change events. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const { macpilot, processes } = useMacpilot(inject('desktopEnv'));

test('wait_for: a zenity dialog’s OK button appears; a value set shows; Cancel makes it disappear', async () => {
  const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot wait', '--text', 'Your name?']);
  const app = String(zenity.pid);
  // Started just now: the app is not on the accessibility bus yet, so the wait outlasts its start.
  const appeared = await macpilot.ok('wait_for', {
    condition: 'appears',
    app,
    role: 'button',
    name: 'OK',
    timeout_ms: 30_000,
  });
  expect(appeared).toMatch(
    /^Done after \d+(\.\d)? m?s: a button named "OK" in the app with pid \d+ to appear\./,
  );
  refOf(appeared, /button "OK"/);

  const field = refOf(await macpilot.ok('find_elements', { app, role: 'textbox' }), /textbox/);
  await macpilot.ok('set_value', { ref: field, value: 'Grace Hopper' });
  const value = await macpilot.ok('wait_for', { condition: 'value_contains', ref: field, text: 'Hopper' });
  expect(value).toContain(`[ref=${field}]`);
  expect(value).toContain('value="Grace Hopper"');
  // A value that never comes: the time-out says the value there was.
  const other = await macpilot.call('wait_for', {
    condition: 'value_equals',
    ref: field,
    text: 'Ada Lovelace',
    timeout_ms: 300,
  });
  expect(other.isError).toBe(true);
  expect(other.text).toMatch(
    /Why: last seen: textbox "Your name\?" \[ref=e\d+\] with the value "Grace Hopper"/,
  );

  const cancel = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: 'Cancel', match: 'exact' }),
    /"Cancel"/,
  );
  await macpilot.ok('click_element', { ref: cancel });
  const gone = await macpilot.ok('wait_for', { condition: 'disappears', ref: field, timeout_ms: 30_000 });
  expect(gone).toContain('to disappear');
  expect(await zenity.exited).toBe(1);
});

test('wait_for that times out is an error naming what was awaited, what was seen, and what to do', async () => {
  const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot timeout', '--text', 'Wait']);
  const app = String(zenity.pid);
  await macpilot.ok('wait_for', { condition: 'appears', app, role: 'textbox', timeout_ms: 30_000 });
  const out = await macpilot.call('wait_for', {
    condition: 'text_appears',
    app,
    text: 'never shown anywhere',
    timeout_ms: 600,
  });
  expect(out.isError).toBe(true);
  expect(out.text).toMatch(
    /^Timed out after \d+ ms waiting for text "never shown anywhere" to appear in the app with pid \d+/,
  );
  expect(out.text).toContain(`Why: last seen: no element on screen matches in "zenity"`);
  expect(out.text).toMatch(/Next: .*timeout_ms/);
  await processes.stop(zenity.pid);
});

test('a long wait_for sends progress to a client that asked for it, which then waits past its own timeout', async () => {
  const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot progress', '--text', 'Wait']);
  const app = String(zenity.pid);
  await macpilot.ok('wait_for', { condition: 'appears', app, role: 'textbox', timeout_ms: 30_000 });
  const progress: Array<{ progress: number; message?: string }> = [];
  const result = (await macpilot.client.callTool(
    {
      name: 'wait_for',
      arguments: { condition: 'text_appears', app, text: 'never shown anywhere', timeout_ms: 7000 },
    },
    undefined,
    // Without the progress the client would give up after 4 s, before the wait's own 7 s.
    { onprogress: (p) => progress.push(p), timeout: 4000, resetTimeoutOnProgress: true },
  )) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(JSON.stringify(result.content)).toContain('Timed out after');
  expect(progress.length).toBeGreaterThanOrEqual(1);
  expect(progress[0]?.message).toMatch(/^wait_for: still working after \d+ s$/);
  expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
  await processes.stop(zenity.pid);
});

test('an action settled on events still shows its change: mousepad’s title gains "*"', async () => {
  const mousepad = processes.start('mousepad');
  const app = String(mousepad.pid);
  await macpilot.ok('wait_for', { condition: 'window_title', app, text: 'Mousepad', timeout_ms: 30_000 });
  const editor = await eventually('the mousepad editor', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'textbox' });
    return out.isError ? undefined : refOf(out.text, /textbox/);
  });
  const set = await macpilot.ok('set_value', { ref: editor, value: 'settled on events' });
  expect(set).toMatch(/~ (window|frame) "\*Untitled/);
  expect(set).toContain('value="settled on events"');

  const titled = await macpilot.ok('wait_for', { condition: 'window_title', app, text: '*Untitled' });
  expect(titled).toMatch(/- (window|frame) "\*Untitled[^"]*" \[ref=e\d+\]/);
  const idle = await macpilot.ok('wait_for', { condition: 'app_idle', app, idle_ms: 200 });
  expect(idle).toContain(`(pid ${app}) is idle`);
});
