/** zenity dialogs: fill an entry and press OK; a password field never shows its value; zenity prints both. */
import { expect, inject, test } from 'vitest';
import { find, nodes, snapshot, useHelper } from './helper.js';

const { helper, start } = useHelper(inject('desktopEnv'));

async function pressOk(root: string) {
  const ok = find(
    (await snapshot(helper, root)).root,
    (n) => n.nativeRole === 'push button' && n.name === 'OK',
  );
  expect(ok).toBeDefined();
  // A visible button is pressed with a real click in its raised window (GTK3 modal loops), and says so.
  expect(await helper.call('ax.perform', { id: ok?.id ?? '', action: 'CLICK' })).toEqual({
    performed: 'Click',
    withPointer: true,
  });
}

test('the text set in the entry is what zenity prints after OK', async () => {
  const zenity = await start('zenity', ['--entry', '--title', 'contract', '--text', 'Your name?']);
  const { root } = zenity;
  const tree = (await snapshot(helper, root)).root;
  const field = find(tree, (n) => n.nativeRole === 'text' && n.states.includes('editable'));
  expect(field).toBeDefined();
  const typed = 'Ada Lovelace — 1815 ✓';
  expect(await helper.call('ax.setValue', { id: field?.id ?? '', value: typed })).toEqual({ value: typed });
  await pressOk(root);
  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe(`${typed}\n`);
});

test('a password field is secure: no value anywhere, yet setting it works', async () => {
  const zenity = await start('zenity', ['--password', '--title', 'contract']);
  const { root } = zenity;
  const tree = (await snapshot(helper, root, { includeHidden: true })).root;
  const field = find(tree, (n) => n.nativeRole === 'password text');
  expect(field?.states).toContain('secure');
  const secret = 'hunter2-contract';
  expect(await helper.call('ax.setValue', { id: field?.id ?? '', value: secret })).toEqual({});
  const { element } = await helper.call('ax.element', { id: field?.id ?? '', maxValueLength: 1000 });
  expect(element.value).toBeUndefined();
  const after = (await snapshot(helper, root, { includeHidden: true })).root;
  expect([...nodes(after)].some((n) => n.value === secret)).toBe(false);
  await pressOk(root);
  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe(`${secret}\n`);
});
