/** mousepad (GTK3, single instance): text in and out of the document, menus, value errors, quitting. */
import { beforeAll, expect, inject, test } from 'vitest';
import { type ElementNode, HelperErrorCode } from '../../src/helper-client/protocol.js';
import { failsWith, find, measureSnapshot, snapshot, textFromApp, useHelper } from './helper.js';

const env = inject('desktopEnv');
const { helper, start } = useHelper(env);
let pid: number;
let root: string;

const editor = (tree: ElementNode) =>
  find(
    tree,
    (n) => n.nativeRole === 'text' && n.states.includes('editable') && n.states.includes('multiline'),
  );

beforeAll(async () => {
  ({ pid, root } = await start('mousepad'));
});

test('the snapshot shows the menu bar and the editor, not the closed menus', async () => {
  const { root: tree, nodeCount } = await snapshot(helper, root);
  const menuBar = find(tree, (n) => n.nativeRole === 'menu bar');
  expect(menuBar?.children?.map((m) => m.name)).toEqual(expect.arrayContaining(['File', 'Edit', 'Help']));
  expect(find(tree, (n) => n.nativeRole === 'menu item')).toBeUndefined();
  expect(editor(tree)).toMatchObject({ value: '' });
  const hidden = await snapshot(helper, root, { includeHidden: true });
  expect(hidden.nodeCount).toBeGreaterThan(nodeCount);
  expect(
    find(hidden.root, (n) => n.nativeRole === 'menu item' && n.name.startsWith('Save As')),
  ).toBeDefined();
  await measureSnapshot(helper, 'mousepad', root);
});

test('ax.setValue puts text into the document, as the app itself reports', async () => {
  const target = editor((await snapshot(helper, root)).root);
  const text = 'Hello from the contract tests\nsecond line — ✓';
  expect(await helper.call('ax.setValue', { id: target?.id ?? '', value: text })).toEqual({ value: text });
  expect(textFromApp(env, target?.id ?? '')).toBe(text.replace('\n', '\\n'));
  const { element } = await helper.call('ax.element', { id: target?.id ?? '', maxValueLength: 5 });
  expect(element).toMatchObject({ value: 'Hello', valueTruncated: true });
});

test('values of the wrong kind are ValueNotSettable, saying why', async () => {
  const target = editor((await snapshot(helper, root)).root);
  const id = target?.id ?? '';
  const number = await failsWith(
    helper.call('ax.setValue', { id, value: 4 }),
    HelperErrorCode.ValueNotSettable,
  );
  expect(number.message).toMatch(/numeric/);
  const toggle = await failsWith(
    helper.call('ax.setValue', { id, value: true }),
    HelperErrorCode.ValueNotSettable,
  );
  expect(toggle.message).toMatch(/not a toggle/);
});

test('ax.focus and ax.focused agree on the editor', async () => {
  const target = editor((await snapshot(helper, root)).root);
  expect(await helper.call('ax.focus', { id: target?.id ?? '' })).toEqual({ focused: true });
  expect((await helper.call('ax.focused', { pid })).element?.id).toBe(target?.id);
});

test('a graceful quit of a modified document does not exit; a forced one does', async () => {
  expect(await helper.call('apps.quit', { pid, force: false, timeoutMs: 1500 })).toEqual({ exited: false });
  expect(await helper.call('apps.quit', { pid, force: true, timeoutMs: 3000 })).toEqual({ exited: true });
  const { apps } = await helper.call('apps.list', {});
  expect(apps.some((a) => a.pid === pid)).toBe(false);
});
