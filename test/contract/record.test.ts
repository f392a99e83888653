/**
 * record.start / record.stop and the `record.input` notifications, with xdotool as the person at the keyboard
 * and mouse: each press arrives with its point or its key, the character it types and the modifiers held.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, expect, inject, test } from 'vitest';
import { notifications, type RecordedInput } from '../../src/helper-client/protocol.js';
import { eventually } from '../support/text.js';
import { useHelper } from './helper.js';

const env = inject('desktopEnv');
const { helper } = useHelper(env);
const xdotool = (...args: string[]) => execFileSync('xdotool', args, { env });

const RETURN = 0xff0d;
const KEY_S = 0x73;

let received: RecordedInput[] = [];
const stopListening = helper.onNotification('record.input', (params) => received.push(params));

afterEach(async () => {
  await helper.call('record.stop', {});
  received = [];
});

/** The notifications once `count` have arrived (RECORD delivers them a moment after xdotool returns). */
const arrived = (count: number) =>
  eventually(`${count} recorded events`, async () => (received.length >= count ? received : undefined));

test('system.hello says input can be recorded here (the X server has RECORD)', async () => {
  const { capabilities } = await helper.call('system.hello', { protocolVersion: 1, client: 'contract' });
  expect(capabilities.recording).toEqual({
    available: true,
    detail: "recording a person's input through the X RECORD extension",
  });
});

test('clicks, typed characters, Enter and a shortcut arrive in order; stop answers how many were sent', async () => {
  expect(await helper.call('record.start', {})).toEqual({});
  xdotool('mousemove', '140', '160', 'click', '1');
  xdotool('type', '--delay', '20', 'Hi 2');
  xdotool('key', 'Return', 'ctrl+s');
  const events = await arrived(8);
  const stopped = await helper.call('record.stop', {});
  for (const event of events) expect(notifications['record.input'].params.parse(event)).toEqual(event);

  const buttons = events.filter((e) => e.kind !== 'keyDown');
  expect(buttons.map(({ kind, button, at, modifiers }) => ({ kind, button, at, modifiers }))).toEqual([
    { kind: 'buttonDown', button: 'left', at: { x: 140, y: 160 }, modifiers: [] },
    { kind: 'buttonUp', button: 'left', at: { x: 140, y: 160 }, modifiers: [] },
  ]);
  const keys = events.filter((e) => e.kind === 'keyDown');
  // Shift itself is not sent, only held: "H" is the h key with shift, typing "H".
  expect(keys.map((k) => k.text ?? null).join('|')).toBe('H|i| |2||');
  expect(keys[0]?.modifiers).toEqual(['shift']);
  expect(keys[0]?.code).toBe(0x68);
  expect(keys.at(-2)).toMatchObject({ code: RETURN, modifiers: [] });
  expect(keys.at(-2)?.text).toBeUndefined();
  // With Control held, s types nothing: it is a shortcut.
  expect(keys.at(-1)).toMatchObject({ code: KEY_S, modifiers: ['control'] });
  expect(keys.at(-1)?.text).toBeUndefined();
  expect(stopped.events).toBe(received.length);
});

test('after record.stop nothing more is sent; a second start records afresh; stop without start answers 0', async () => {
  await helper.call('record.start', {});
  await helper.call('record.start', {}); // already on: the same recording
  xdotool('key', 'a');
  await arrived(1);
  expect((await helper.call('record.stop', {})).events).toBe(1);
  expect(await helper.call('record.stop', {})).toEqual({ events: 0 });

  received = [];
  xdotool('key', 'b');
  await helper.call('record.start', {});
  xdotool('key', 'c');
  const events = await arrived(1);
  expect(events.map((e) => e.text)).toEqual(['c']);
  expect((await helper.call('record.stop', {})).events).toBe(1);
  stopListening();
});
