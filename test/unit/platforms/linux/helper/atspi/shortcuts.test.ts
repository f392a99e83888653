import { expect, test } from 'vitest';
import { parseChord } from '../../../../../../src/keys.js';
import { acceleratorText, shortcutOf } from '../../../../../../src/platforms/linux/helper/atspi/shortcuts.js';

test('the accelerator of a GTK key binding, in the form press_key takes', () => {
  expect(shortcutOf('s;<Alt>f:s;<Primary>s')).toBe('Ctrl+S');
  expect(shortcutOf('w;<Alt>f:w;<Primary><Shift>n')).toBe('Ctrl+Shift+N');
  expect(shortcutOf('o;<Alt>e:r:o;<Primary><Alt>u')).toBe('Ctrl+Alt+U');
  expect(shortcutOf('u;<Alt>e:m:u;<Alt>Up')).toBe('Alt+Up');
  expect(shortcutOf('f;<Alt>v:f;F11')).toBe('F11');
  expect(shortcutOf('l;<Alt>e:l;<Primary><Shift>Delete')).toBe('Ctrl+Shift+Delete');
});

test('mnemonics alone are no shortcut', () => {
  expect(shortcutOf('<Alt>f;<Alt>f;')).toBeUndefined();
  expect(shortcutOf('m;<Alt>f:m;')).toBeUndefined();
  expect(shortcutOf('')).toBeUndefined();
  expect(shortcutOf('n')).toBeUndefined();
});

test('a binding of one field counts when it cannot be a mnemonic letter', () => {
  expect(shortcutOf('<Control>s')).toBe('Ctrl+S');
  expect(shortcutOf('F5')).toBe('F5');
});

test('modifiers come in one order, keysyms read as press_key names them, unknown modifiers give nothing', () => {
  expect(acceleratorText('<Shift><Control>z')).toBe('Ctrl+Shift+Z');
  expect(acceleratorText('<Primary>plus')).toBe('Ctrl++');
  expect(acceleratorText('<Primary>Page_Down')).toBe('Ctrl+PageDown');
  expect(acceleratorText('<Mod1>Return')).toBe('Alt+Enter');
  expect(acceleratorText('<Release>x')).toBeUndefined();
  expect(acceleratorText('<Primary>')).toBeUndefined();
});

test('every shortcut written here is a chord press_key accepts, meaning the same keys', () => {
  const chord = parseChord(shortcutOf('a;<Alt>f:a;<Primary><Shift>s') ?? '');
  expect(chord).toMatchObject({ key: { name: 's' }, modifiers: ['control', 'shift'] });
  for (const accelerator of ['<Primary>plus', '<Primary>Page_Down', '<Alt>Return', '<Primary>bracketleft'])
    expect(() => parseChord(acceleratorText(accelerator) ?? '')).not.toThrow();
});
