/**
 * A cancelled action stops: typing cancelled by the client (its AbortSignal, or its request timeout) stops in the
 * helper between two keys, the next input call is served at once, and an action asked to run longer than a
 * minute is refused before it starts.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { refOf } from '../support/text.js';
import { pause, typeThenCancel } from '../support/typing.js';

const { macpilot, launch } = useMacpilot(inject('desktopEnv'));

/** The editor's text as get_element reports it. */
async function textOf(ref: string): Promise<string> {
  const value = /^value: (.*)$/m.exec(await macpilot.ok('get_element', { ref }))?.[1];
  return value === undefined ? '' : (JSON.parse(value) as string);
}

async function emptyEditor(): Promise<string> {
  const pid = await launch('mousepad');
  const editor = refOf(
    await macpilot.ok('find_elements', { app: String(pid), role: 'textbox' }),
    /multiline/,
  );
  await macpilot.ok('focus_element', { ref: editor });
  await macpilot.ok('press_key', { key: 'a', modifiers: ['ctrl'] });
  await macpilot.ok('press_key', { key: 'BackSpace' });
  return editor;
}

test('typing cancelled by the client stops between two keys, and the next key is served at once', async () => {
  const editor = await emptyEditor();
  const text = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN';
  const cancelledAfter = await typeThenCancel(macpilot, editor, text, 1200);

  const pressStarted = performance.now();
  const pressed = await macpilot.call('press_key', { key: 'End' });
  const pressMs = performance.now() - pressStarted;
  expect(pressed.isError, pressed.text).toBe(false);
  // Measured 137-148 ms; the bound is loose for loaded machines, and a lane still typing would take seconds.
  expect(pressMs).toBeLessThan(1000);

  const atCancel = await textOf(editor);
  await pause(1000); // five more keys' worth of time: nothing may arrive
  const later = await textOf(editor);
  expect(later).toBe(atCancel);
  expect(text.startsWith(later), later).toBe(true);
  // 200 ms a key: at most the keys due before the cancel, and one in flight.
  expect(later.length).toBeLessThanOrEqual(Math.ceil(cancelledAfter / 200) + 1);
  expect(later.length).toBeGreaterThan(0);
  console.log(
    `cancel: ${later.length} of ${text.length} keys typed; press_key after it ${Math.round(pressMs)} ms`,
  );
});

test('text typed before a cancel is undone as typing that ran: undo puts the field back', async () => {
  const editor = await emptyEditor();
  await macpilot.ok('type_text', { ref: editor, text: 'kept ' });
  await typeThenCancel(macpilot, editor, 'abcdefghijklmnopqrstuvwxyz', 900);
  await pause(300);
  const typed = await textOf(editor);
  expect(typed.startsWith('kept a'), typed).toBe(true);
  const undone = await macpilot.ok('undo', {});
  expect(undone).toContain('type_text');
  expect(await textOf(editor)).toBe('kept ');
});

test('typing the client gave up on (its request timeout) stops too', async () => {
  const editor = await emptyEditor();
  const typing = macpilot.client.callTool(
    { name: 'type_text', arguments: { ref: editor, text: 'xyz', delay_ms: 1000 } },
    CallToolResultSchema,
    { timeout: 1500 },
  );
  await expect(typing).rejects.toThrow(/timed out/i);
  await pause(2000); // past the third key's time
  const typed = await textOf(editor);
  expect(['x', 'xy']).toContain(typed);
});

test('an action longer than a minute is refused with its estimate and how to split it; input stays free', async () => {
  const refused = await macpilot.call('type_text', { text: 'a'.repeat(5000), delay_ms: 1000 });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('Typing 5000 characters 1000 ms apart would take 5000.0 s');
  expect(refused.text).toContain('parts of at most 60 characters');
  const pressed = await macpilot.call('press_key', { key: 'End' });
  expect(pressed.isError, pressed.text).toBe(false);
});

test('a sequence of schema-valid extremes on every input tool leaves every input tool answering at once', async () => {
  const editor = await emptyEditor();
  const { x, y } = { x: 640, y: 400 };
  const extremes: [string, Record<string, unknown>][] = [
    ['click', { x: 32767, y: 32767, count: 3, button: 'middle', modifiers: ['ctrl', 'alt', 'shift'] }],
    ['click', { x: -32768, y: -32768 }],
    ['click', { x: 100_000, y: -100_000 }],
    ['double_click', { x: 32767, y: 0 }],
    ['move_mouse', { x: -100_000, y: 100_000, smooth: true }],
    ['move_mouse', { x: 32767, y: 32767, smooth: true }],
    ['hover', { x: 0, y: 32767 }],
    ['drag', { from: { x: 32767, y: 32767 }, to: { x: -32768, y: -32768 } }],
    ['scroll', { direction: 'down', amount: 50_000, x, y }],
    ['scroll', { direction: 'left', amount: 50_000, x: 100_000, y: 100_000 }],
    ['press_key', { key: 'Left', repeat: 100, modifiers: ['shift'] }],
    ['type_text', { ref: editor, text: 'x'.repeat(2000) }],
    ['type_text', { text: 'y'.repeat(100_000), delay_ms: 1000 }], // refused: a day's typing
    ['press_key', { key: 'nosuchkey' }],
  ];
  for (const [name, args] of extremes) {
    const answer = await macpilot.client.callTool({ name, arguments: args }, CallToolResultSchema, {
      timeout: 60_000,
    });
    expect(answer.content, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBeDefined();
  }
  // mousepad has thousands of keys and wheel steps to digest; what is timed below is macpilot, not that.
  await macpilot.ok('wait_for', { condition: 'app_idle', app: 'mousepad', timeout_ms: 60_000 });
  const after: Record<string, number> = {};
  const quick: [string, Record<string, unknown>][] = [
    ['click', { x, y }],
    ['move_mouse', { x, y }],
    ['scroll', { direction: 'up', amount: 50, x, y }],
    ['press_key', { key: 'End' }],
    ['type_text', { text: 'z' }],
    ['drag', { from: { x, y }, to: { x: x + 5, y } }],
  ];
  for (const [name, args] of quick) {
    const started = performance.now();
    const answer = await macpilot.call(name, args);
    after[name] = Math.round(performance.now() - started);
    expect(answer.isError, `${name}: ${answer.text}`).toBe(false);
  }
  console.log(`after the extremes, ms: ${JSON.stringify(after)}`);
  // The lane wedged by a long action made every input call wait out the helper's 15 s limit.
  for (const [name, ms] of Object.entries(after)) expect(ms, name).toBeLessThan(1000);
}, 240_000);
