/**
 * Undo and rollback through a real client, on a zenity entry and its window: a workflow step that fails with
 * on_fail rollback puts back the values set earlier in the workflow; undo restores a text field and a moved
 * window; clicks cannot be undone and are named. A clipboard someone copied to since is not put back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, inject, test } from 'vitest';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';
import { xclipOn } from '../support/xclip.js';

const env = inject('desktopEnv');
const { macpilot, processes } = useMacpilot(env);

async function entry(title: string) {
  const zenity = processes.start('zenity', [
    '--entry',
    '--title',
    title,
    '--text',
    'Name?',
    '--entry-text',
    'original',
  ]);
  const app = String(zenity.pid);
  const field = await eventually('the zenity entry', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'textbox' });
    return out.isError ? undefined : refOf(out.text, /textbox/);
  });
  return { zenity, app, field };
}

const valueOf = async (ref: string) => /value: "(.*)"/.exec(await macpilot.ok('get_element', { ref }))?.[1];

test('a failing step with on_fail rollback puts back the values set earlier in the workflow', async () => {
  const { zenity, field } = await entry('rollback');
  const result = (await macpilot.client.callTool({
    name: 'run_workflow',
    arguments: {
      steps: [
        { tool: 'set_value', args: { ref: field, value: 'first' } },
        { tool: 'set_value', args: { ref: field, value: 'second' } },
        {
          tool: 'click_element',
          args: { path: 'app("zenity")/window[0]/button["No such button"]' },
          on_fail: 'rollback',
        },
      ],
    },
  })) as CallToolResult;
  const json = result.structuredContent as { success: boolean; rolled_back: number[] };
  expect(result.isError).toBe(true);
  expect(json.success).toBe(false);
  expect(json.rolled_back.sort()).toEqual([0, 1]);
  expect(await valueOf(field)).toBe('original');
  await processes.stop(zenity.pid);
});

test('undo restores a text field and a moved window, newest first, and names what it cannot undo', async () => {
  const { zenity, app, field } = await entry('undo');
  await macpilot.ok('set_value', { ref: field, value: 'changed' });
  const before = await macpilot.ok('list_windows', { app });
  await macpilot.ok('move_window', { app, x: 40, y: 60 });
  expect(await macpilot.ok('list_windows', { app })).not.toBe(before);

  const undone = await macpilot.ok('undo', { count: 2 });
  expect(undone).toMatch(/^Undid 2 of 2 actions/);
  expect(undone).toMatch(/undid move_window: where ".*" was/);
  expect(undone).toMatch(/undid set_value: the previous value of textbox/);
  expect(await valueOf(field)).toBe('original');
  await eventually('the window back where it was', async () =>
    (await macpilot.ok('list_windows', { app })) === before ? true : undefined,
  );
  expect(await macpilot.ok('session_info')).toMatch(/actions this session: \d+, of which \d+ can be undone/);

  await macpilot.ok('press_key', { key: 'End' });
  const keys = await macpilot.call('undo');
  expect(keys.text).toContain('not undone: press_key, it cannot be undone');
  // A restore of a window that was not minimized changed nothing: that is the reason given, not "cannot".
  await macpilot.ok('restore_window', { app });
  const unchanged = await macpilot.call('undo');
  expect(unchanged.text).toMatch(/not undone: restore_window, it changed nothing \(".*" was not minimized\)/);
  // Several, newest first, undone or not: each line answers the action in its place.
  await macpilot.ok('move_window', { app, x: 80, y: 90 });
  await macpilot.ok('press_key', { key: 'End' });
  await macpilot.ok('move_window', { app, x: 120, y: 130 });
  const three = await macpilot.ok('undo', { count: 3 });
  expect(three.split('\n').filter((line) => line.startsWith('- '))).toEqual([
    expect.stringMatching(/^- undid move_window: /),
    expect.stringMatching(/^- not undone: press_key, /),
    expect.stringMatching(/^- undid move_window: /),
  ]);
  // More asked than there is: the answer says so; then nothing is left, and the answer says why.
  await macpilot.ok('move_window', { app, x: 60, y: 70 });
  expect(await macpilot.ok('undo', { count: 5 })).toMatch(
    /^Undid 1 of 1 action \(5 asked; the session had no more to undo\)/,
  );
  expect((await macpilot.call('undo')).text).toMatch(
    /^Nothing to undo: an undo or a rollback already reached the \d+ actions this session made \(each was undone, or named there if it cannot be\)\.$/,
  );
  await processes.stop(zenity.pid);
});

test('text typed where the focus is, without a ref, is undone in the field that had the focus', async () => {
  const { zenity, field } = await entry('undo typed');
  await macpilot.ok('focus_element', { ref: field });
  await macpilot.ok('press_key', { key: 'end' });
  await macpilot.ok('type_text', { text: ' and more' });
  expect(await valueOf(field)).toBe('original and more');
  expect(await macpilot.ok('undo')).toMatch(/undid type_text: the previous value of textbox/);
  expect(await valueOf(field)).toBe('original');
  // Typed over the whole text selected: the field holds the text typed, which the answer does not doubt.
  await macpilot.ok('press_key', { key: 'ctrl+a' });
  const replaced = await macpilot.ok('type_text', { text: 'replaced' });
  expect(replaced).not.toContain('The field now holds');
  expect(await valueOf(field)).toBe('replaced');
  await processes.stop(zenity.pid);
});

test('undo puts back the clipboard text that clear_clipboard took away', async () => {
  // clear_clipboard asks first in every mode: the person let such actions run unasked.
  const allowed = await startMacpilot({ ...env, MACPILOT_CONSENT: 'allow' });
  try {
    await allowed.ok('set_clipboard', { text: 'kept across the undo' });
    await allowed.ok('clear_clipboard');
    expect(await allowed.ok('get_clipboard')).not.toContain('kept across the undo');
    expect(await allowed.ok('undo')).toMatch(/undid clear_clipboard: the previous clipboard text/);
    expect(await allowed.ok('get_clipboard')).toContain('kept across the undo');
  } finally {
    await allowed.close();
  }
});

test('undo leaves alone a clipboard that something else was copied to since, and says so; the older change too', async () => {
  const xclip = xclipOn(env, processes);
  await macpilot.ok('set_clipboard', { text: 'first' });
  await macpilot.ok('set_clipboard', { text: 'second' });
  // The person copies something of their own: no undo may destroy it.
  await xclip.owns('copied by the person');
  await eventually("the person's copy", async () =>
    (await macpilot.ok('get_clipboard')).includes('copied by the person') ? true : undefined,
  );
  const refused = await macpilot.call('undo', { count: 2 });
  expect(refused.isError).toBe(true);
  const undone = refused.text;
  expect(undone).toMatch(/^Undid 0 of 2 actions/);
  expect(undone).toMatch(
    /not undone: set_clipboard, the clipboard changed since \(something else was copied\)/,
  );
  expect(undone).not.toContain('undid set_clipboard');
  expect(await macpilot.ok('get_clipboard')).toContain('copied by the person');
  // Nothing copied since: the undo puts the earlier text back.
  await macpilot.ok('set_clipboard', { text: 'third' });
  expect(await macpilot.ok('undo')).toMatch(/undid set_clipboard: the previous clipboard text/);
  expect(await macpilot.ok('get_clipboard')).toContain('copied by the person');
});
