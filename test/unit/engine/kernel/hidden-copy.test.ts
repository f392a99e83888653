/** What counts as a paste while the clipboard holds a hidden app's copy, and the refusal then. */
import { expect, test } from 'vitest';
import { HiddenCopy, namedPaste, pastes } from '../../../../src/engine/kernel/hidden-copy.js';
import { parseChord } from '../../../../src/keys.js';

test('Ctrl+V, Command+V (with Shift too) and Shift+Insert paste; Ctrl+C, V and Ctrl+Insert do not', () => {
  for (const chord of ['ctrl+v', 'cmd+v', 'ctrl+shift+v', 'Control+V', 'shift+insert']) {
    expect(pastes(parseChord(chord)), chord).toBe(true);
  }
  for (const chord of ['ctrl+c', 'v', 'ctrl+insert', 'shift+v', 'alt+v']) {
    expect(pastes(parseChord(chord)), chord).toBe(false);
  }
});

test('a menu item or button named Paste pastes; a name that only mentions it does not', () => {
  expect(['Paste', 'Paste Special…', 'paste and match style'].every(namedPaste)).toBe(true);
  expect(['Copy', 'Pasted', 'Clipboard: paste', undefined].some(namedPaste)).toBe(false);
});

test('refused only while the clipboard holds the copy, as a refusal of the app lists', () => {
  const copy = new HiddenCopy();
  expect(() => copy.refusePaste('pressing ctrl+v')).not.toThrow();
  copy.set(true);
  expect(() => copy.refusePaste('pressing ctrl+v')).toThrow(
    expect.objectContaining({ kind: 'app_off_limits', refusal: true }),
  );
  copy.set(false);
  expect(() => copy.refusePaste('pressing ctrl+v')).not.toThrow();
});
