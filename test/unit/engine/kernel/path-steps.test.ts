/**
 * A path's step by role alone: `group` names an unnamed wrapper of that role where there is one (the paths a
 * snapshot prints), and otherwise the one group agents see there, named or not (the path an agent writes from a
 * snapshot that showed `group "Dialogs"`).
 */
import { expect, it } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import { FakeHelper } from '../fake-helper.js';
import { el } from '../fixtures.js';

const dialogs = el('application', 'demo', { id: 'app', pid: 5 }, [
  el('frame', 'Dialogs and Message Boxes', { id: 'win', pid: 5 }, [
    el('filler', '', { id: 'fill', pid: 5 }, [
      el('panel', 'Dialogs', { id: 'frame', pid: 5 }, [
        el('text', 'Entry 1', { id: 'e1', pid: 5 }),
        el('text', 'Entry 2', { id: 'e2', pid: 5 }),
      ]),
    ]),
  ]),
]);

const wrapped = el('application', 'demo', { id: 'app', pid: 5 }, [
  el('frame', 'Main', { id: 'win', pid: 5 }, [
    el('panel', '', { id: 'box', pid: 5 }, [el('text', 'Only', { id: 'e3', pid: 5 })]),
  ]),
]);

const engineOf = (root: ReturnType<typeof el>) =>
  createEngine(new FakeHelper([{ pid: 5, name: 'demo', active: true, root }]), { settleMs: 0, pollMs: 0 });

it('a bare group step reaches the named group the snapshot shows when no unnamed group is there', async () => {
  const engine = engineOf(dialogs);
  for (const step of ['group', 'group[0]']) {
    const got = await engine.elements.getElement({ path: `app("demo")/window/${step}/textbox[1]` });
    expect(got).toMatchObject({
      kind: 'element',
      entry: { path: 'app("demo")/window[0]/group["Dialogs"]/textbox["Entry 2"]' },
    });
  }
  const missing = await engine.elements
    .getElement({ path: 'app("demo")/window/list/textbox' })
    .catch((error: unknown) => String(error));
  expect(missing).toContain('there now: group "Dialogs"');
});

it('a bare group step still names an unnamed wrapper where there is one', async () => {
  const got = await engineOf(wrapped).elements.getElement({ path: 'app("demo")/window/group/textbox' });
  expect(got).toMatchObject({ kind: 'element', entry: { label: 'textbox "Only"' } });
});

it('a path that leads nowhere still tells the audit log which app it reached, named by its pid', async () => {
  const error: unknown = await engineOf(dialogs)
    .elements.getElement({ path: 'app(5)/window/list' })
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: 'no_element_at_path', reached: { app: 'demo' } });
});
