/** observe.start / observe.changed: mousepad's UI changes reach the server as folded, content-free notifications. */
import { beforeAll, expect, inject, test } from 'vitest';
import type { ElementNode, NotificationParams } from '../../src/helper-client/protocol.js';
import { eventually } from '../support/text.js';
import { find, snapshot, useHelper } from './helper.js';

const { helper, start } = useHelper(inject('desktopEnv'));
let pid: number;
let editor: string;
const received: NotificationParams<'observe.changed'>[] = [];

const isEditor = (n: ElementNode) =>
  n.nativeRole === 'text' && n.states.includes('editable') && n.states.includes('multiline');

beforeAll(async () => {
  helper.onNotification('observe.changed', (params) => received.push(params));
  const mousepad = await start('mousepad');
  pid = mousepad.pid;
  editor = find((await snapshot(helper, mousepad.root)).root, isEditor)?.id ?? '';
  expect(editor).not.toBe('');
});

/** Sets the editor's text and returns the notifications for mousepad up to the first text-changed one. */
async function setText(text: string) {
  const from = received.length;
  await helper.call('ax.setValue', { id: editor, value: text });
  return eventually('an observe.changed with a text-changed kind for mousepad', async () => {
    const mine = received.slice(from).filter((n) => n.pid === pid);
    return mine.some((n) => n.kinds.some((k) => k.startsWith('object:text-changed'))) ? mine : undefined;
  });
}

test('after observe.start, setting text in mousepad yields observe.changed for its pid', async () => {
  expect(await helper.call('observe.start', {})).toEqual({});
  expect(await helper.call('observe.start', {})).toEqual({});
  const notes = await setText('first text');
  for (const note of notes) {
    for (const kind of note.kinds) expect(kind).toMatch(/^(object|window|focus):[a-z-]+(:[a-z0-9_:-]+)?$/);
  }
});

test('a burst of events is folded into fewer notifications', async () => {
  const from = received.length;
  await setText('a longer text\nover several lines\nso that the app emits many events');
  // Let the tail of the burst arrive, then count what it was folded into.
  const settled = await eventually('the burst to end', async () => {
    const before = received.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return received.length === before ? received.slice(from).filter((n) => n.pid === pid) : undefined;
  });
  const events = settled.reduce((sum, n) => sum + n.count, 0);
  expect(events).toBeGreaterThan(settled.length);
});

test('no notification carries the text that was set', async () => {
  const secret = 'Zanzibar-4821-canary';
  const from = received.length;
  await setText(secret);
  const sent = JSON.stringify(received.slice(from));
  expect(sent).not.toContain('zanzibar');
  expect(sent).not.toContain('Zanzibar');
  expect(sent).not.toContain('4821');
});
