import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import {
  ActionJson,
  actionJson,
  ElementDetailJson,
  elementResultJson,
  LocatedJson,
  locatedJson,
  MatchesJson,
  matchesJson,
} from '../../../../src/engine/render/json.js';
import { renderText } from '../../../../src/engine/render/text.js';
import { FakeHelper } from '../fake-helper.js';
import { byId, runningApps, SECRET } from '../fixtures.js';

function setup() {
  const { app, other } = runningApps();
  const helper = new FakeHelper([app, other]);
  helper.actions.set('ok', ['click']);
  return { helper, engine: createEngine(helper, { settleMs: 0, pollMs: 0 }), app };
}

describe('structured results', () => {
  it('find: the matches a model reads, as data its schema accepts, secure values left out', async () => {
    const { engine } = setup();
    const result = await engine.elements.find({ role: 'textbox' });
    const json = MatchesJson.parse(matchesJson(result));
    expect(json.total).toBe(2);
    expect(json.matches.map((m) => m.path)).toEqual([
      'app("mousepad")/window[0]/textbox',
      'app("mousepad")/dialog/textbox',
    ]);
    const [editor, password] = json.matches;
    expect(editor).toMatchObject({
      role: 'textbox',
      value: 'Hello world',
      states: expect.arrayContaining(['focused']),
    });
    expect(password?.value).toBeUndefined();
    expect(password?.states).toContain('secure');
    expect(JSON.stringify(json)).not.toContain(SECRET);
    // The text names the same refs.
    for (const m of json.matches) expect(renderText(result)).toContain(`[ref=${m.ref}]`);
  });

  it("names as the text and paths show them: a toolkit's padding and line breaks left out", async () => {
    const { app, other } = runningApps();
    byId(app.root, 'ok').name = '  OK\n ';
    const engine = createEngine(new FakeHelper([app, other]), { settleMs: 0, pollMs: 0 });
    const json = MatchesJson.parse(matchesJson(await engine.elements.find({ role: 'button', name: 'OK' })));
    expect(json.matches.map((m) => m.name)).toEqual(['OK']);
  });

  it('get_element: every field, a secure field without its value or textual attributes', async () => {
    const { engine } = setup();
    const editor = ElementDetailJson.parse(
      elementResultJson(await engine.elements.getElement({ path: 'app("mousepad")/window[0]/textbox' })),
    );
    expect(editor).toMatchObject({
      native_role: 'text',
      value: 'Hello world',
      secure: false,
      child_count: 0,
    });
    const password = ElementDetailJson.parse(
      elementResultJson(await engine.elements.getElement({ path: 'app("mousepad")/dialog/textbox' })),
    );
    expect(password.secure).toBe(true);
    expect(password.value).toBeUndefined();
    expect(JSON.stringify(password)).not.toContain(SECRET);
  });

  it('get_focused_element and element_at: found or not', async () => {
    const { engine } = setup();
    const focused = LocatedJson.parse(locatedJson(await engine.elements.focused()));
    expect(focused.found).toBe(true);
    expect(focused.element?.path).toBe('app("mousepad")/window[0]/textbox');
    expect(LocatedJson.parse(locatedJson(await engine.elements.elementAt(5000, 5000)))).toEqual({
      found: false,
    });
  });

  it('an action: what was done, the target, and each change with its ref and path', async () => {
    const { engine, helper, app } = setup();
    helper.onPerform = () => {
      byId(app.root, 'dlg').name = 'Unlocked';
    };
    const result = await engine.elements.click({ path: 'app("mousepad")/dialog["Unlock"]/button["OK"]' });
    const json = ActionJson.parse(actionJson(result));
    expect(json.done).toMatch(/^Clicked button "OK" \[ref=e\d+\]/);
    expect(json.target).toMatchObject({ label: 'button "OK"', app: { name: 'mousepad', pid: 4242 } });
    expect(json.watched).toBe(true);
    expect(json.app_closed).toBe(false);
    expect(json.changes).toEqual([
      {
        change: 'changed',
        ref: expect.stringMatching(/^e\d+$/),
        path: 'app("mousepad")/dialog',
        role: 'dialog',
        name: 'Unlocked',
      },
    ]);
    expect(renderText(result)).toContain(`~ dialog "Unlocked" [ref=${json.changes[0]?.ref}]`);
  });
});
