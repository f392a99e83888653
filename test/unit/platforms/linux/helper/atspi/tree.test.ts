/** Snapshots against a fake accessibility bus: which D-Bus calls a walk makes, and what it returns. */
import { expect, test } from 'vitest';
import type { Bus } from '../../../../../../src/platforms/linux/dbus/bus.js';
import type { ReadContext } from '../../../../../../src/platforms/linux/helper/atspi/element.js';
import type { Session } from '../../../../../../src/platforms/linux/helper/session.js';
import { stateBitsOf, State } from '../../../../../../src/platforms/linux/helper/atspi/states.js';
import { snapshot } from '../../../../../../src/platforms/linux/helper/atspi/tree.js';
import { DBusCallError } from '../../../../../../src/platforms/linux/errors.js';
import type { FrameOffsets } from '../../../../../../src/platforms/linux/helper/atspi/windows.js';

const APP = ':1.7';
const ROLE = { application: 75, frame: 23, panel: 39, button: 43 };
const SHOWING = stateBitsOf([State.SHOWING, State.VISIBLE, State.SENSITIVE]);

interface FakeNode {
  role: number;
  name: string;
  children: string[];
}

/**
 * An app with one window holding a panel of `buttons` push buttons: a subtree far larger than its top. `loop`:
 * the panel also lists its own window among its children (a tree that leads back up); `listedTwice`: GetMatches
 * lists every element twice (as Chromium does a bubble's); `collection: false`: the app has no Collection.
 */
function fakeApp(
  buttons: number,
  shape: { loop?: boolean; listedTwice?: boolean; collection?: boolean } = {},
) {
  const nodes = new Map<string, FakeNode & { parent?: string }>();
  const add = (path: string, node: FakeNode, parent?: string) => nodes.set(path, { ...node, parent });
  const kids = Array.from({ length: buttons }, (_, i) => `/b${i}`);
  add('/root', { role: ROLE.application, name: 'app', children: ['/w'] });
  add('/w', { role: ROLE.frame, name: 'Window', children: ['/p'] }, '/root');
  add('/p', { role: ROLE.panel, name: '', children: shape.loop ? [...kids, '/w'] : kids }, '/w');
  for (const kid of kids) add(kid, { role: ROLE.button, name: kid, children: [] }, '/p');
  const calls: string[] = [];
  const bus = {
    call: (_dest: string, path: string, _iface: string, member: string) => {
      calls.push(member);
      const node = nodes.get(path);
      if (!node) return Promise.reject(new Error(`no ${path}`));
      const answers: Record<string, unknown[]> = {
        GetAll: [
          {
            Name: node.name,
            Description: '',
            ChildCount: node.children.length,
            AccessibleId: '',
            Parent: node.parent ? [APP, node.parent] : ['org.a11y.atspi.Registry', '/org/a11y/atspi/null'],
          },
        ],
        GetRole: [node.role],
        GetState: [[...SHOWING]],
        GetChildren: [node.children.map((c) => [APP, c])],
        GetMatches: [
          [...nodes.keys()]
            .filter((p) => p !== path)
            .flatMap((p) => (shape.listedTwice ? [p, p] : [p]))
            .map((p) => [APP, p]),
        ],
      };
      if (member === 'GetMatches' && shape.collection === false)
        return Promise.reject(new DBusCallError('org.freedesktop.DBus.Error.UnknownMethod', 'no Collection'));
      const answer = answers[member];
      return answer ? Promise.resolve(answer) : Promise.reject(new Error(`unexpected ${member}`));
    },
  } as unknown as Bus;
  const session = { app: () => Promise.resolve({ pid: 42, gtk4: false }) } as unknown as Session;
  const ctx: ReadContext = { bus, session, offsets: {} as FrameOffsets };
  return { ctx, calls };
}

const params = { depth: 1, maxNodes: 2000, includeHidden: true, maxValueLength: 0 };

test('a one-level walk reads only the children, not the whole subtree (a file chooser holds thousands)', async () => {
  const { ctx, calls } = fakeApp(500);
  const result = await snapshot(ctx, { ...params, root: `${APP}/root` });
  expect(result.root.children?.map((c) => c.name)).toEqual(['Window']);
  expect(calls).not.toContain('GetMatches');
  expect(calls.filter((member) => member === 'GetRole')).toHaveLength(2);
});

test('a deeper GTK3 walk lists the subtree in one GetMatches and rebuilds it', async () => {
  const { ctx, calls } = fakeApp(3);
  const result = await snapshot(ctx, { ...params, depth: 5, root: `${APP}/root` });
  expect(calls).toContain('GetMatches');
  const panel = result.root.children?.[0]?.children?.[0];
  expect(panel?.children?.map((c) => c.name)).toEqual(['/b0', '/b1', '/b2']);
});

test('elements a listing gives twice (Chromium) are in the tree once', async () => {
  const { ctx } = fakeApp(3, { listedTwice: true });
  const result = await snapshot(ctx, { ...params, depth: 5, root: `${APP}/root` });
  const panel = result.root.children?.[0]?.children?.[0];
  expect(result.root.children?.map((c) => c.name)).toEqual(['Window']);
  expect(panel?.children?.map((c) => c.name)).toEqual(['/b0', '/b1', '/b2']);
  expect(result.nodeCount).toBe(6);
});

test('a tree that leads back up is walked once: the element met again stays where it was first', async () => {
  const { ctx } = fakeApp(2, { loop: true, collection: false });
  const result = await snapshot(ctx, { ...params, depth: 30, root: `${APP}/root` });
  const panel = result.root.children?.[0]?.children?.[0];
  expect(panel?.children?.map((c) => c.name)).toEqual(['/b0', '/b1']);
  expect(result).toMatchObject({ nodeCount: 5, truncated: false });
});
