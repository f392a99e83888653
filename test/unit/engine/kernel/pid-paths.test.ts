/**
 * Two running apps of one name: the paths macpilot prints name the app by its pid, and every path it prints is
 * one it accepts; a path by name is answered by the app chooser (at a terminal, the person picks).
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import { type AppChooser, AppRefused } from '../../../../src/engine/kernel/resolve.js';
import { FakeHelper } from '../fake-helper.js';
import { el } from '../fixtures.js';

function question(pid: number, title = 'Question') {
  return el('application', 'zenity', { id: `app${pid}`, pid }, [
    el('dialog', title, { id: `dlg${pid}`, pid }, [
      el('push button', 'OK', { id: `ok${pid}`, pid }),
      el('push button', 'Cancel', { id: `cancel${pid}`, pid }),
    ]),
  ]);
}

function twoZenities(choose?: AppChooser) {
  const helper = new FakeHelper([
    { pid: 11, name: 'zenity', active: true, root: question(11) },
    { pid: 22, name: 'zenity', active: false, root: question(22) },
  ]);
  helper.actions.set('ok22', ['click']);
  return { helper, engine: createEngine(helper, { settleMs: 0, pollMs: 0 }, undefined, choose) };
}

describe('paths when two apps share a name', () => {
  it("one the person sees and one their own (the console's browser): paths name the app by name", async () => {
    const helper = new FakeHelper([
      { pid: 11, name: 'zenity', active: true, root: question(11) },
      { pid: 22, name: 'zenity', active: false, root: question(22) },
    ]);
    const personsOwn = (app: { pid?: number }) => {
      if (app.pid === 11)
        throw Object.assign(new AppRefused({ what: '-', why: '-', next: '-' }), { personsOwn: true });
    };
    const engine = createEngine(helper, { settleMs: 0, pollMs: 0 }, personsOwn);
    const tree = await engine.elements.snapshot({ app: '22' });
    if (tree.kind !== 'snapshot') throw new Error(tree.kind);
    const button = tree.tree.children[0]?.children[0];
    expect(button?.path).toBe('app("zenity")/dialog/button["OK"]');
    expect(await engine.elements.getElement({ path: button?.path ?? '' })).toMatchObject({
      entry: { app: { pid: 22 } },
    });
  });

  it('a tree of one prints pid paths, and each printed path leads back to its element', async () => {
    const { engine } = twoZenities();
    const tree = await engine.elements.snapshot({ app: '22' });
    if (tree.kind !== 'snapshot') throw new Error(tree.kind);
    const button = tree.tree.children[0]?.children[0];
    expect(button?.path).toBe('app(22)/dialog/button["OK"]');
    const got = await engine.elements.getElement({ path: button?.path ?? '' });
    expect(got).toMatchObject({ kind: 'element', entry: { app: { pid: 22 } } });
  });

  it('a path by pid acts on that app', async () => {
    const { engine, helper } = twoZenities();
    await engine.elements.click({ path: 'app(22)/dialog/button["OK"]' });
    expect(helper.calls.find((c) => c.method === 'ax.perform')?.params).toMatchObject({ id: 'ok22' });
  });

  it('a path by the shared name asks the chooser, and without one names the candidates and the pid form', async () => {
    const picked: string[] = [];
    const { engine } = twoZenities(async (query, candidates) => {
      picked.push(query);
      return candidates.find((c) => c.app.pid === 22)?.app;
    });
    const got = await engine.elements.getElement({ path: 'app("zenity")/dialog/button["OK"]' });
    expect(picked).toEqual(['zenity']);
    expect(got).toMatchObject({ kind: 'element', entry: { path: 'app(22)/dialog/button["OK"]' } });
    const refused = await twoZenities()
      .engine.elements.getElement({ path: 'app("zenity")/dialog' })
      .catch((error: unknown) => error as Error);
    expect(String(refused)).toMatch(/Several apps match "zenity"/);
  });

  it("a window's title picks the app of that name whose window it is", async () => {
    const helper = new FakeHelper([
      { pid: 11, name: 'zenity', active: true, root: question(11, 'Warning') },
      { pid: 22, name: 'zenity', active: false, root: question(22) },
    ]);
    const bounds = { x: 0, y: 0, width: 300, height: 100 };
    const window = { bounds, minimized: false, focused: false, app: 'zenity' };
    helper.windows = [
      { ...window, id: '1', pid: 11, title: 'Warning' },
      { ...window, id: '2', pid: 22, title: 'Question' },
    ];
    const engine = createEngine(helper, { settleMs: 0, pollMs: 0 });
    const tree = await engine.elements.snapshot({ app: 'zenity', window: 'question' });
    expect(tree).toMatchObject({ kind: 'snapshot', title: 'dialog "Question" of "zenity" (pid 22)' });
    // A title both windows have still leaves the choice open.
    helper.windows = helper.windows.map((w) => ({ ...w, title: 'Question' }));
    const both = await engine.elements
      .snapshot({ app: 'zenity', window: 'Question' })
      .catch((error: unknown) => error as Error);
    expect(String(both)).toMatch(/Several apps match "zenity"/);
  });
});
