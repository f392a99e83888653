/** Synthetic input over XTEST, checked through what the apps themselves report over AT-SPI. */
import { expect, inject, test } from 'vitest';
import type { ElementNode } from '../../src/helper-client/protocol.js';
import { parseChord } from '../../src/keys.js';
import { eventually, settled } from '../support/text.js';
import { centre, find, snapshot, useHelper } from './helper.js';

const { helper, start } = useHelper(inject('desktopEnv'));
let mousepad: Promise<{ pid: number; root: string }> | undefined;

/** The element's text once it is `expected`, or as it is after a while (for the assertion to show). */
const textOf = (id: string, expected: string) =>
  settled(
    async () => String((await helper.call('ax.element', { id, maxValueLength: 10_000 })).element.value ?? ''),
    expected,
  );

async function press(chord: string, repeat = 1) {
  const { key, modifiers } = parseChord(chord);
  await helper.call('input.key', { code: key.x, modifiers, repeat });
}

/** Mousepad's text editor (mousepad started once), focused in its active window. */
async function focusedEditor(): Promise<string> {
  mousepad ??= start('mousepad');
  const { pid, root } = await mousepad;
  await helper.call('apps.activate', { pid });
  const editor = find(
    (await snapshot(helper, root)).root,
    (n) => n.nativeRole === 'text' && n.states.includes('editable'),
  );
  if (!editor) throw new Error('mousepad shows no editor');
  await helper.call('ax.focus', { id: editor.id });
  await eventually('the editor to have focus', async () =>
    (await helper.call('ax.focused', { pid })).element?.id === editor.id ? true : undefined,
  );
  return editor.id;
}

test('system.hello offers input when XTEST is there', async () => {
  const hello = await helper.hello();
  expect(hello.capabilities.input.available).toBe(true);
  expect(hello.capabilities.input.detail).toMatch(/^XTEST \d+\.\d+/);
});

test('input.move puts the pointer where input.pointer then finds it, at once or smoothly', async () => {
  await helper.call('input.move', { to: { x: 123, y: 321 }, durationMs: 0 });
  expect(await helper.call('input.pointer', {})).toEqual({ at: { x: 123, y: 321 } });
  await helper.call('input.move', { to: { x: 40, y: 50 }, durationMs: 100 });
  expect(await helper.call('input.pointer', {})).toEqual({ at: { x: 40, y: 50 } });
});

test('mousepad: typed Unicode, shifted characters and newlines arrive exactly; keys edit and clear', async () => {
  const editor = await focusedEditor();
  const text = 'Hello é€✓ 😀 ÄÖÜ ß\nA!@#$%^&*()_+{}|:"<>? ~ Zürich — 東京';
  expect(await helper.call('input.type', { text, delayMs: 0 })).toEqual({ typed: [...text].length });
  expect(await textOf(editor, text)).toBe(text);

  // Lent keycodes are reused: the same characters again, then a delay between characters.
  await helper.call('input.type', { text: '€✓', delayMs: 20 });
  expect(await textOf(editor, `${text}€✓`)).toBe(`${text}€✓`);

  await press('backspace', 2);
  await press('ctrl+home');
  await press('shift+end');
  await helper.call('input.type', { text: 'Hi', delayMs: 0 });
  const edited = `Hi\n${text.split('\n')[1]}`;
  expect(await textOf(editor, edited)).toBe(edited);

  await press('ctrl+a');
  await press('backspace');
  expect(await textOf(editor, '')).toBe('');
});

test('mousepad: right after typing lent characters, a double click selects a word that typing replaces', async () => {
  const editor = await focusedEditor();
  await helper.call('input.type', { text: 'alpha beta ✓ €', delayMs: 0 });
  expect(await textOf(editor, 'alpha beta ✓ €')).toBe('alpha beta ✓ €');
  // "alpha" is the first word of the editor's first line, at its top left.
  const { element } = await helper.call('ax.element', { id: editor, maxValueLength: 0 });
  const b = element.bounds ?? { x: 0, y: 0 };
  await helper.call('input.click', {
    at: { x: b.x + 12, y: b.y + 8 },
    button: 'left',
    count: 2,
    modifiers: [],
  });
  await helper.call('input.type', { text: 'omega', delayMs: 0 });
  expect(await textOf(editor, 'omega beta ✓ €')).toBe('omega beta ✓ €');
  await press('ctrl+a');
  await press('delete');
  expect(await textOf(editor, '')).toBe('');
});

test('gtk3-demo: a click at a tab selects it; the wheel scrolls the demo list both ways', async () => {
  const { root } = await start('gtk3-demo');
  const tree = async () => (await snapshot(helper, root)).root;
  const tab = (t: ElementNode) => find(t, (n) => n.nativeRole === 'page tab' && n.name === 'Source');
  const source = tab(await tree());
  expect(source?.states).not.toContain('selected');
  await helper.call('input.click', {
    at: await centre(helper, source?.id ?? ''),
    button: 'left',
    count: 1,
    modifiers: [],
  });
  await eventually('the Source tab to be selected', async () =>
    tab(await tree())?.states.includes('selected') ? true : undefined,
  );

  const scrolled = async () => Number(find(await tree(), (n) => n.nativeRole === 'scroll bar')?.value);
  const list = find(await tree(), (n) => n.nativeRole === 'tree table');
  const over = await centre(helper, list?.id ?? '');
  expect(await scrolled()).toBe(0);
  await helper.call('input.scroll', { at: over, dx: 0, dy: 5 });
  const down = await eventually('the list to scroll down', async () => {
    const value = await scrolled();
    return value > 0 ? value : undefined;
  });
  await helper.call('input.scroll', { at: over, dx: 0, dy: -2 });
  await eventually('the list to scroll back up', async () => ((await scrolled()) < down ? true : undefined));
});

test('input.key refuses fn, which X11 never sees', async () => {
  await expect(helper.call('input.key', { code: 0xff52, modifiers: ['fn'], repeat: 1 })).rejects.toThrow(
    /fn modifier does not exist on X11/,
  );
});
