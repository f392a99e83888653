/** Names that may be entered text, and the labels and paths that carry them, as a watching person reads them. */
import { expect, it } from 'vitest';
import { maskedLabel, maskedPath, mayBeNamedByEntry } from '../../../../src/engine/kernel/entered.js';

const field = 'app("Chromium")/window[0]/document/textbox["MCPSECRETA"]';

it("takes a field's name, an editable element's and the names inside a text field for entered text", () => {
  expect(mayBeNamedByEntry('textbox', field)).toBe(true);
  expect(mayBeNamedByEntry('combobox', undefined)).toBe(true);
  expect(mayBeNamedByEntry('text', `${field}/text`)).toBe(true);
  expect(mayBeNamedByEntry('paragraph', 'app("x")/window[0]/paragraph', true)).toBe(true);
  expect(mayBeNamedByEntry('button', 'app("x")/window[0]/button["Delete"]')).toBe(false);
  expect(mayBeNamedByEntry('text', 'app("x")/window[0]/text["Name"]')).toBe(false);
});

it('gives such names in paths and labels as their lengths, and keeps the others', () => {
  expect(maskedPath(`${field}/text["MCPSECRETB"]`)).toBe(
    'app("Chromium")/window[0]/document/textbox[(10 characters)]/text[(10 characters)]',
  );
  expect(maskedPath('app(42)/dialog/combobox["Violet"][1]')).toBe(
    'app(42)/dialog/combobox[(6 characters)][1]',
  );
  expect(maskedPath('app("x")/dialog/button["OK"]')).toBe('app("x")/dialog/button["OK"]');
  expect(maskedLabel('textbox "DELSECRET delete"')).toBe('textbox name=(16 characters)');
  expect(maskedLabel('text "hellohello"', `${field}/text`)).toBe('text name=(10 characters)');
  expect(maskedLabel('push button "Delete All"')).toBe('push button "Delete All"');
});
