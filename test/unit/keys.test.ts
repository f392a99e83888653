import { describe, expect, it } from 'vitest';
import { MacpilotError } from '../../src/errors.js';
import { codeFor, KEY_NAMES, parseChord, parseKey, parseModifier } from '../../src/keys.js';

function failure(run: () => unknown): MacpilotError {
  try {
    run();
  } catch (error) {
    if (error instanceof MacpilotError) return error;
    throw error;
  }
  throw new Error('expected a MacpilotError');
}

describe('key names', () => {
  it('gives each key its macOS key code and X keysym side by side', () => {
    expect(parseKey('enter')).toEqual({ name: 'enter', mac: 0x24, x: 0xff0d });
    expect(parseKey('a')).toEqual({ name: 'a', mac: 0x00, x: 0x61 });
    expect(parseKey('f5')).toEqual({ name: 'f5', mac: 0x60, x: 0xffc2 });
    expect(parseKey('backspace')).toEqual({ name: 'backspace', mac: 0x33, x: 0xff08 });
    expect(parseKey('delete')).toEqual({ name: 'delete', mac: 0x75, x: 0xffff });
    expect(parseKey('slash')).toEqual({ name: 'slash', mac: 0x2c, x: 0x2f });
    expect(parseKey('0')).toEqual({ name: '0', mac: 0x1d, x: 0x30 });
  });

  it('accepts the spellings agents use', () => {
    const same = (names: string[], canonical: string) =>
      expect(names.map((n) => parseKey(n).name)).toEqual(names.map(() => canonical));
    same(['Return', 'ENTER'], 'enter');
    same(['esc', 'Escape'], 'escape');
    same(['pageup', 'page_up', 'Page Up', 'PgUp', 'page-up'], 'pageup');
    same(['Up', 'ArrowUp', 'up arrow'], 'up');
    same([',', 'comma'], 'comma');
    same(['.', 'period', 'dot'], 'period');
    same(['`', 'backquote', 'grave'], 'backquote');
    same(['[', 'bracketleft'], 'bracketleft');
    same(['\\', 'backslash'], 'backslash');
    same(["'", 'quote', 'apostrophe'], 'quote');
    same(['A', 'a'], 'a');
  });

  it('names every key of the brief: specials, f1-f12, letters, digits, punctuation', () => {
    const expected = [
      'tab',
      'space',
      'home',
      'end',
      'pagedown',
      'left',
      'right',
      'down',
      'f1',
      'f12',
      'z',
      '9',
    ];
    expect(KEY_NAMES).toEqual(expect.arrayContaining(expected));
    const codes = KEY_NAMES.map((n) => parseKey(n));
    expect(new Set(codes.map((c) => c.x)).size).toBe(codes.length);
    // plus shares the Mac's "=" key: Cmd++ is Cmd+= in Mac apps; Print Screen, Scroll Lock and Pause are F13-F15.
    expect(new Set(codes.map((c) => c.mac)).size).toBe(codes.length - 4);
  });

  it('names the keypad, Print Screen, Scroll Lock and Pause keys, which a Mac reads as F13-F15', () => {
    expect(parseKey('numpad7')).toEqual({ name: 'numpad7', mac: 0x59, x: 0xffb7 });
    expect(parseKey('KP_Enter')).toEqual({ name: 'numpadenter', mac: 0x4c, x: 0xff8d });
    expect(parseKey('keypad plus').name).toBe('numpadplus');
    expect(parseKey('Print').name).toBe('printscreen');
    expect(parseKey('print screen')).toEqual({ name: 'printscreen', mac: parseKey('f13').mac, x: 0xff61 });
    expect(parseKey('Scroll_Lock').mac).toBe(parseKey('f14').mac);
    expect(parseKey('pause').mac).toBe(parseKey('f15').mac);
  });

  it('refuses an unknown key, listing the valid names', () => {
    const error = failure(() => parseKey('hyperdrive'));
    expect(error.what).toBe('Unknown key "hyperdrive"');
    expect(error.why).toContain('enter, escape, tab');
    expect(error.why).toContain('a-z, 0-9');
    expect(error.next).toContain('type_text');
  });

  it('names the nearest keys for a mistyped one', () => {
    expect(failure(() => parseKey('entr')).what).toMatch(/^Unknown key "entr"; did you mean "enter"/);
    expect(failure(() => parseKey('Escpe')).what).toMatch(/^Unknown key "Escpe"; did you mean "escape"/);
    expect(failure(() => parseKey('pgeup')).what).toMatch(/did you mean "pageup"/);
  });
});

describe('chords', () => {
  it('splits modifiers from the key and normalizes their aliases', () => {
    expect(parseChord('ctrl+shift+s')).toMatchObject({ key: { name: 's' }, modifiers: ['control', 'shift'] });
    expect(parseChord('cmd+s').modifiers).toEqual(['command']);
    expect(parseChord('Command+Shift+Z')).toMatchObject({
      key: { name: 'z' },
      modifiers: ['command', 'shift'],
    });
    expect(parseChord('alt+F4')).toMatchObject({ key: { name: 'f4' }, modifiers: ['option'] });
    expect(parseChord('opt + left').modifiers).toEqual(['option']);
    expect(parseChord('meta+win+fn+up').modifiers).toEqual(['command', 'super', 'fn']);
    expect(parseChord('enter')).toMatchObject({ key: { name: 'enter' }, modifiers: [] });
  });

  it('takes "+" as a key, and adds extra modifiers once', () => {
    expect(parseChord('cmd++')).toMatchObject({ key: { name: 'plus' }, modifiers: ['command'] });
    expect(parseChord('+').key.name).toBe('plus');
    expect(parseChord('ctrl+s', ['shift', 'control']).modifiers).toEqual(['control', 'shift']);
  });

  it('picks the code of each platform', () => {
    const { key } = parseChord('cmd+s');
    expect(codeFor(key, 'darwin')).toBe(0x01);
    expect(codeFor(key, 'linux')).toBe(0x73);
  });

  it('refuses unknown modifiers and chords without a key', () => {
    expect(failure(() => parseChord('hyper+s')).why).toContain('cmd, command, meta, ctrl');
    expect(failure(() => parseModifier('')).what).toBe('Unknown modifier ""');
    expect(failure(() => parseChord('ctrl+')).what).toBe('No key in "ctrl+"');
    expect(failure(() => parseChord('ctrl+nokey')).what).toBe('Unknown key "nokey"');
    // A modifier last is no key: said so, not "unknown key".
    expect(failure(() => parseChord('ctrl+alt')).what).toBe('No key in "ctrl+alt": "alt" is a modifier');
    expect(failure(() => parseChord('shift')).next).toContain('key_down holds a modifier down by itself');
  });
});
