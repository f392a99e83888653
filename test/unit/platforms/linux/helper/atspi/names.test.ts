import { expect, test } from 'vitest';
import { gtk4Name } from '../../../../../../src/platforms/linux/helper/atspi/names.js';

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
  }
});
