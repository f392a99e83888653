import { expect, test } from 'vitest';
import { elementName } from '../../../../../../src/platforms/linux/helper/atspi/names.js';

const gtk4Name = (name: string) => elementName(name, 'push button', true);

test('GTK4 type-name fallbacks become no name', () => {
  for (const name of ['GtkButton', 'AdwGizmo', 'HistoryView', 'GtkSourceView', 'GtkScrollbar']) {
    expect(gtk4Name(name)).toBe('');
  }
});

test('names doubled by GTK4 are said once', () => {
  expect(gtk4Name('7 7')).toBe('7');
  expect(gtk4Name('× ×')).toBe('×');
  expect(gtk4Name('mod mod')).toBe('mod');
});

test('real names stay as they are', () => {
  for (const name of ['Calculator', 'Undo', 'Basic', 'End Group [)]', 'a b', 'Save As', 'OK', '', 'π']) {
    expect(gtk4Name(name)).toBe(name);
    expect(elementName(name, 'push button', false)).toBe(name);
  }
});

test("a Chromium tab's name leaves out the memory its page uses, which it shows only under the pointer", () => {
  expect(elementName('Order form - Memory usage - 30.1 MB', 'page tab', false)).toBe('Order form');
  expect(elementName('New Tab - Memory usage - 912 KB', 'page tab', false)).toBe('New Tab');
  expect(elementName('Order form', 'page tab', false)).toBe('Order form');
  // Only a tab's: a page's own text that happens to say it stays.
  expect(elementName('x - Memory usage - 30.1 MB', 'label', false)).toBe('x - Memory usage - 30.1 MB');
});
