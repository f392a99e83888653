/** One element focused in a walk: a web document that keeps its focused state gives it up to the real focus. */
import { expect, test } from 'vitest';
import { dropDocumentFocus } from '../../../../src/engine/kernel/tree.js';
import { el } from '../fixtures.js';

const focusedNames = (root: ReturnType<typeof el>): string[] => {
  const names: string[] = [];
  const visit = (node: ReturnType<typeof el>): void => {
    if (node.states.includes('focused')) names.push(node.name);
    node.children?.forEach(visit);
  };
  visit(root);
  return names;
};

test("a focused toolbar button or a field in the page takes the focus from the page's document", () => {
  const button = el('push button', 'File', { states: ['focused', 'focusable'] });
  const field = el('entry', 'Name', { states: ['focusable'] });
  const page = el('document web', 'Page', { states: ['focused', 'focusable'] }, [field]);
  const browser = el('frame', 'Chromium', {}, [el('tool bar', '', {}, [button]), page]);
  dropDocumentFocus(browser);
  expect(focusedNames(browser)).toEqual(['File']);
  expect(page.states).toEqual(['focusable']);

  button.states = ['focusable'];
  field.states = ['focused', 'focusable'];
  page.states = ['focused', 'focusable'];
  dropDocumentFocus(browser);
  expect(focusedNames(browser)).toEqual(['Name']);
});

test('a document focused alone keeps its focus, as do two elements that are no documents', () => {
  const page = el('document web', 'Page', { states: ['focused'] });
  dropDocumentFocus(page);
  expect(page.states).toEqual(['focused']);
  const two = el('frame', 'W', {}, [
    el('push button', 'A', { states: ['focused'] }),
    el('push button', 'B', { states: ['focused'] }),
  ]);
  dropDocumentFocus(two);
  expect(focusedNames(two)).toEqual(['A', 'B']);
});
