import { describe, expect, it } from 'vitest';
import { categoryOf } from '../../../../src/engine/features/observe.js';
import { renderObserved } from '../../../../src/engine/render/observed.js';
import type { ObservedResult } from '../../../../src/engine/kernel/results.js';

describe('observe_changes', () => {
  it('groups AT-SPI and AX event kinds into kinds of change', () => {
    expect(categoryOf('window:create')).toBe('window');
    expect(categoryOf('ax:windowcreated')).toBe('window');
    expect(categoryOf('object:state-changed:focused')).toBe('focus');
    expect(categoryOf('ax:focuseduielementchanged')).toBe('focus');
    expect(categoryOf('object:property-change:accessible-value')).toBe('value');
    expect(categoryOf('ax:valuechanged')).toBe('value');
    expect(categoryOf('object:text-changed:insert')).toBe('text');
    expect(categoryOf('object:children-changed:add')).toBe('children');
    expect(categoryOf('object:property-change:accessible-name')).toBe('name');
    expect(categoryOf('object:state-changed:checked')).toBe('state');
    expect(categoryOf('object:bounds-changed')).toBe('layout');
    expect(categoryOf('object:selection-changed')).toBe('selection');
    expect(categoryOf('object:something-new')).toBe('other');
  });

  const result = (
    changes: ObservedResult['changes'],
    more: Partial<ObservedResult> = {},
  ): ObservedResult => ({
    kind: 'observed',
    app: { name: 'mousepad', pid: 42 },
    elapsedMs: 2000,
    durationMs: 2000,
    changes,
    matched: false,
    live: true,
    ...more,
  });

  it('says each change in words, naming the element, its ref and its value now, behind the data fence', () => {
    const text = renderObserved(
      result([
        {
          afterMs: 120,
          category: 'window',
          kinds: ['window:create'],
          count: 1,
          element: { label: 'dialog "Open"' },
        },
        {
          afterMs: 300,
          category: 'focus',
          kinds: ['object:state-changed:focused'],
          count: 1,
          element: { label: 'textbox "Name"', ref: 'e9' },
        },
        {
          afterMs: 310,
          category: 'text',
          kinds: ['object:text-changed:insert'],
          count: 3,
          element: { label: 'textbox "Name"', ref: 'e9', value: 'Ada' },
        },
        { afterMs: 400, category: 'state', kinds: ['object:state-changed:checked'], count: 1 },
      ]),
      '(fence)',
    );
    expect(text).toBe(
      [
        '4 changes in "mousepad" (pid 42) in 2.00 s (fence):',
        '- +0.12 s window opened: dialog "Open"',
        '- +0.30 s focus moved to textbox "Name" [ref=e9]',
        '- +0.31 s text of textbox "Name" [ref=e9] changed, now "Ada" (3 events)',
        '- +0.40 s an element changed (checked)',
      ].join('\n'),
    );
  });

  it('says when nothing changed, when a filter matched, and when the helper reports no events', () => {
    expect(renderObserved(result([]), '')).toBe('No change in "mousepad" (pid 42) in 2.00 s.');
    expect(
      renderObserved(
        result([{ afterMs: 50, category: 'window', kinds: ['window:activate'], count: 1 }], {
          matched: true,
          elapsedMs: 50,
        }),
        '(f)',
      ),
    ).toBe('A matching change in "mousepad" (pid 42) after 0.05 s (f):\n- +0.05 s window activated');
    expect(renderObserved(result([], { live: false }), '')).toContain('reports no change events');
  });
});
