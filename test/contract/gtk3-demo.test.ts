/** gtk3-demo (GTK3): snapshots, element detail, ancestors, hit testing, focus, actions, activate and quit. */
import { beforeAll, expect, inject, test } from 'vitest';
import { HelperErrorCode, methods } from '../../src/helper-client/protocol.js';
import { eventually } from '../support/text.js';
import { failsWith, find, hitsAtCentre, measureSnapshot, nodes, snapshot, useHelper } from './helper.js';

const { helper, start } = useHelper(inject('desktopEnv'));
let pid: number;
let root: string;

beforeAll(async () => {
  ({ pid, root } = await start('gtk3-demo'));
});

test('apps.list shows gtk3-demo with its pid and desktop file id', async () => {
  const { apps } = await helper.call('apps.list', {});
  expect(apps.find((a) => a.pid === pid)).toMatchObject({
    name: 'gtk3-demo',
    bundleId: 'gtk3-demo',
    id: root,
  });
});

test('a snapshot is a tree of showing elements with roles, states and screen bounds', async () => {
  const result = await snapshot(helper, root);
  expect(methods['ax.snapshot'].result.parse(result)).toEqual(result);
  expect(result.truncated).toBe(false);
  const all = [...nodes(result.root)];
  expect(all).toHaveLength(result.nodeCount);
  expect(result.nodeCount).toBeGreaterThan(50);
  expect(result.root).toMatchObject({ nativeRole: 'application', name: 'gtk3-demo', pid });
  const frame = result.root.children?.[0];
  expect(frame).toMatchObject({ nativeRole: 'frame' });
  // Bounds cost a call per element: snapshots leave them to ax.element.
  expect(all.every((n) => n.bounds === undefined)).toBe(true);
  const { element } = await helper.call('ax.element', { id: frame?.id ?? '', maxValueLength: 0 });
  expect(element.bounds?.width).toBeGreaterThan(100);
  expect(all.every((n) => !n.states.includes('offscreen'))).toBe(true);
  expect(new Set(all.map((n) => n.id)).size).toBe(all.length);
  expect(find(result.root, (n) => n.nativeRole === 'push button' && n.name === 'Run')).toBeDefined();
  await measureSnapshot(helper, 'gtk3-demo', root);
});

test('handles are stable: the same element keeps its handle across snapshots', async () => {
  const ids = (r: Awaited<ReturnType<typeof snapshot>>) => [...nodes(r.root)].map((n) => n.id).sort();
  expect(ids(await snapshot(helper, root))).toEqual(ids(await snapshot(helper, root)));
});

test('depth, maxNodes and includeHidden bound the walk', async () => {
  const shallow = await snapshot(helper, root, { depth: 1 });
  expect(shallow.nodeCount).toBe(1 + (shallow.root.children?.length ?? 0));
  expect(shallow.root.children?.every((c) => c.children === undefined)).toBe(true);

  const capped = await snapshot(helper, root, { maxNodes: 10 });
  expect(capped).toMatchObject({ nodeCount: 10, truncated: true });
  expect([...nodes(capped.root)]).toHaveLength(10);

  const visible = await snapshot(helper, root);
  const everything = await snapshot(helper, root, { includeHidden: true });
  expect(everything.nodeCount).toBeGreaterThan(visible.nodeCount);
  expect([...nodes(everything.root)].some((n) => n.states.includes('offscreen'))).toBe(true);

  const frame = visible.root.children?.[0];
  const sub = await snapshot(helper, frame?.id ?? '', { depth: 2 });
  expect(sub.root.id).toBe(frame?.id);
});

test('ax.element gives actions, attributes and bounds; ax.ancestors leads from the app down', async () => {
  const tree = await snapshot(helper, root);
  const button = find(tree.root, (n) => n.nativeRole === 'push button' && n.name === 'Run');
  expect(button).toBeDefined();
  const { element } = await helper.call('ax.element', { id: button?.id ?? '', maxValueLength: 100 });
  expect(element.actions.map((a) => a.toLowerCase())).toContain('click');
  expect(element.attributes).toBeTypeOf('object');
  expect(element.bounds?.width).toBeGreaterThan(0);

  const { ancestors } = await helper.call('ax.ancestors', { id: element.id });
  expect(ancestors[0]).toMatchObject({ id: root, nativeRole: 'application' });
  expect(ancestors[1]).toMatchObject({ nativeRole: 'frame' });
  const chain = [...ancestors.map((a) => a.id), element.id];
  // Each ancestor's walk reaches the next one.
  let node = tree.root;
  for (const id of chain.slice(1)) {
    const next = node.children?.find((c) => c.id === id);
    expect(next, `child ${id}`).toBeDefined();
    if (next) node = next;
  }
});

test('ax.perform rejects unknown actions, listing the real ones', async () => {
  const tree = await snapshot(helper, root);
  const button = find(tree.root, (n) => n.nativeRole === 'push button' && n.name === 'Run');
  const error = await failsWith(
    helper.call('ax.perform', { id: button?.id ?? '', action: 'explode' }),
    HelperErrorCode.ActionFailed,
  );
  expect(error.data.hint).toMatch(/click/i);
  await failsWith(
    helper.call('ax.setValue', { id: button?.id ?? '', value: 'text' }),
    HelperErrorCode.ValueNotSettable,
  );
  await failsWith(
    helper.call('ax.setValue', { id: button?.id ?? '', value: 3 }),
    HelperErrorCode.ValueNotSettable,
  );
  await failsWith(
    helper.call('ax.setValue', { id: button?.id ?? '', value: true }),
    HelperErrorCode.ValueNotSettable,
  );
});

test('ax.elementAt finds the element under a point', async () => {
  const tree = await snapshot(helper, root);
  const button = find(tree.root, (n) => n.nativeRole === 'push button' && n.name === 'Run');
  expect(button).toBeDefined();
  expect(await hitsAtCentre(helper, button?.id ?? '')).toContain(button?.id);
});

test('ax.focus moves keyboard focus and ax.focused reports it', async () => {
  await helper.call('apps.activate', { pid });
  const tree = await snapshot(helper, root);
  const target = find(
    tree.root,
    (n) => n.states.includes('focusable') && !n.states.includes('focused') && n.nativeRole === 'push button',
  );
  expect(target).toBeDefined();
  expect(await helper.call('ax.focus', { id: target?.id ?? '' })).toEqual({ focused: true });
  const focused = await eventually('focus on the target', async () => {
    const { element } = await helper.call('ax.focused', { pid });
    return element?.id === target?.id ? element : undefined;
  });
  expect(focused?.states).toContain('focused');
  expect((await helper.call('ax.focused', {})).element?.id).toBe(target?.id);
});

test('apps.activate brings it to the front; apps.quit closes it gracefully', async () => {
  expect(await helper.call('apps.activate', { pid })).toEqual({ activated: true });
  const { apps } = await helper.call('apps.list', {});
  expect(apps.find((a) => a.pid === pid)?.active).toBe(true);

  expect(await helper.call('apps.quit', { pid, force: false, timeoutMs: 5000 })).toEqual({ exited: true });
  await failsWith(
    helper.call('ax.snapshot', { root, depth: 1, maxNodes: 5, includeHidden: false, maxValueLength: 0 }),
    HelperErrorCode.ElementGone,
  );
});
