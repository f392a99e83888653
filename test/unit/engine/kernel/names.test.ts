import { describe, expect, it } from 'vitest';
import { contentName, takesContentName, withContentNames } from '../../../../src/engine/kernel/names.js';
import { byId, calculator, el } from '../fixtures.js';

describe('takesContentName', () => {
  it('is for unnamed elements of roles ARIA names from content, with children', () => {
    const label = [el('label', 'π')];
    expect(takesContentName(el('push button', '', {}, label))).toBe(true);
    expect(takesContentName(el('table cell', ' ', {}, label))).toBe(true);
    expect(takesContentName(el('AXCell', '', {}, [el('AXStaticText', 'Total')]))).toBe(true);
    expect(takesContentName(el('push button', 'Pi', {}, label))).toBe(false);
    expect(takesContentName(el('push button', ''))).toBe(false);
    expect(takesContentName(el('text', '', {}, label))).toBe(false);
    expect(takesContentName(el('frame', '', {}, label))).toBe(false);
  });
});

describe('contentName', () => {
  it('joins the labels among the logical children, on screen only', () => {
    const children = [
      el('label', ' x '),
      el('image', 'icon'),
      el('label', ''),
      el('label', 'hidden', { states: ['offscreen'] }),
      el('label', '2'),
    ];
    expect(contentName(children)).toBe('x 2');
    expect(contentName([el('push button', 'OK')])).toBe('');
  });
});

describe('withContentNames', () => {
  it('names unnamed controls from their label children, through unnamed containers', () => {
    const tree = withContentNames(calculator());
    expect(byId(tree, 'pi').name).toBe('π');
    expect(byId(tree, 'sq').name).toBe('x 2');
    expect(byId(tree, 'b7').name).toBe('7');
    expect(byId(tree, 'clear').name).toBe('');
    expect(byId(tree, 'display').name).toBe('');
  });

  it('leaves an element whose children were not walked, and returns unchanged trees as they were', () => {
    const unwalked = el('push button', '', {}, undefined);
    unwalked.childCount = 1;
    expect(withContentNames(unwalked)).toBe(unwalked);
    const named = el('frame', 'w', {}, [el('push button', 'OK', {}, [el('label', 'OK')])]);
    expect(withContentNames(named)).toBe(named);
    const source = calculator();
    withContentNames(source);
    expect(byId(source, 'pi').name).toBe('');
  });
});
