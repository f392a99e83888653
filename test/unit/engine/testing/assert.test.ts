/** assert_element's comparison: one failure per property that differs, with what was expected and what was there. */
import { describe, expect, it } from 'vitest';
import { compareExpectations, type Seen } from '../../../../src/engine/testing/assert.js';
import { assertText } from '../../../../src/engine/render/testing.js';
import { RefTable } from '../../../../src/engine/kernel/refs.js';
import { annotate } from '../../../../src/engine/kernel/tree.js';
import type { ElementNode } from '../../../../src/helper-client/protocol.js';
import { createEngine } from '../../../../src/engine/index.js';
import { MacpilotError } from '../../../../src/errors.js';
import { FakeHelper } from '../fake-helper.js';
import { el, mousepad, SECRET } from '../fixtures.js';

const walked = (node: ElementNode) =>
  annotate({ node, path: { app: 'demo', segments: [] }, app: { pid: 4242, name: 'demo' } }, new RefTable());

const field = walked(
  el('entry', 'Name', {
    value: 'Ada',
    description: 'Your full name',
    states: ['focused', 'focusable', 'editable'],
    bounds: { x: 10, y: 10, width: 200, height: 30 },
  }),
);
const seen: Seen = { element: field, count: 1 };

describe('compareExpectations', () => {
  it('passes when every property holds', () => {
    expect(
      compareExpectations(seen, {
        exists: true,
        enabled: true,
        focused: true,
        checked: false,
        selected: false,
        value: 'Ada',
        name: ' Name ',
        role: 'textfield',
        visible: true,
        contains_text: 'full name',
        count: 1,
      }),
    ).toEqual([]);
  });

  it('names each property that differs, with expected and actual', () => {
    expect(
      compareExpectations(seen, {
        enabled: false,
        value: 'Bob',
        role: 'button',
        contains_text: 'age',
        count: 2,
      }),
    ).toEqual([
      { property: 'count', expected: 2, actual: 1 },
      { property: 'enabled', expected: false, actual: true },
      { property: 'role', expected: 'button', actual: 'textbox' },
      { property: 'value', expected: 'Bob', actual: 'Ada' },
      { property: 'contains_text', expected: 'age', actual: 'Name | Ada | Your full name' },
    ]);
  });

  it('fails exists for an absent element, and passes exists: false', () => {
    const absent: Seen = { count: 0, why: 'no element matches the query' };
    expect(compareExpectations(absent, { enabled: true })).toEqual([
      { property: 'exists', expected: true, actual: false },
    ]);
    expect(compareExpectations(absent, { exists: false, count: 0 })).toEqual([]);
    expect(compareExpectations(seen, { exists: false })).toEqual([
      { property: 'exists', expected: false, actual: true },
    ]);
  });

  it('never reads a secure value: it compares as nothing', () => {
    const secret = walked(el('password text', '', { value: 'hunter2', states: ['secure'] }));
    expect(compareExpectations({ element: secret, count: 1 }, { value: 'hunter2' })).toEqual([
      { property: 'value', expected: 'hunter2', actual: null },
    ]);
  });

  it('counts an element off screen or without area as not visible', () => {
    const hidden = walked(el('push button', 'Go', { states: ['offscreen'] }));
    const flat = walked(el('push button', 'Go', { bounds: { x: 0, y: 0, width: 0, height: 10 } }));
    for (const element of [hidden, flat]) {
      expect(compareExpectations({ element, count: 1 }, { visible: true })).toEqual([
        { property: 'visible', expected: true, actual: false },
      ]);
    }
  });

  it('shows values in a failure exactly as compared: a trailing tab is visible', () => {
    const typed = walked(el('text', '', { value: 'first line\t', states: ['multiline'] }));
    const failures = compareExpectations({ element: typed, count: 1 }, { value: 'first line' });
    const text = assertText(
      { kind: 'assert', subject: 'e1', element: typed, checked: 1, failures, elapsedMs: 5, timeoutMs: 0 },
      '(fence)',
    );
    expect(text).toContain('- value: expected "first line", actual "first line\\t"');
  });
});

describe('assert_element on a secure field', () => {
  it('refuses to compare its value, saying why, and never shows it', async () => {
    const helper = new FakeHelper([{ pid: 4242, name: 'mousepad', active: true, root: mousepad() }]);
    const engine = createEngine(helper, { settleMs: 0, pollMs: 0 });
    const refused = await engine.asserts
      .assert({ target: { path: 'app("mousepad")/dialog["Unlock"]/textbox' }, expect: { value: SECRET } })
      .catch((error: unknown) => error as MacpilotError);
    expect(refused).toBeInstanceOf(MacpilotError);
    expect((refused as MacpilotError).render()).toMatch(
      /is a secure field\.\nWhy: secure values are never read/,
    );
    expect((refused as MacpilotError).render()).not.toContain(SECRET);
  });
});
