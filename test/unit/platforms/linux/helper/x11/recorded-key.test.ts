import { describe, expect, it } from 'vitest';
import { pressedKey } from '../../../../../../src/platforms/linux/helper/x11/recorded-key.js';

const KP_END = 0xff9c;
const KP_3 = 0xffb3;
const KP_ADD = 0xffab;
const off = { num: false, caps: false };

describe('a recorded key press as the keyboard state made it', () => {
  it('a keypad key is its digit with Num Lock on or Shift held, its cursor key otherwise, and spends the Shift', () => {
    expect(pressedKey(KP_END, KP_3, [], { ...off, num: true })).toEqual({
      keysym: KP_3,
      modifiers: [],
      text: '3',
    });
    expect(pressedKey(KP_END, KP_3, ['shift'], off)).toEqual({ keysym: KP_3, modifiers: [], text: '3' });
    // XK_End, which press_key names "end".
    expect(pressedKey(KP_END, KP_3, [], off)).toEqual({ keysym: 0xff57, modifiers: [] });
    expect(pressedKey(KP_END, KP_3, ['shift'], { ...off, num: true })).toEqual({
      keysym: 0xff57,
      modifiers: [],
    });
    // A shortcut: the digit, named, typing nothing.
    expect(pressedKey(KP_END, KP_3, ['control'], { ...off, num: true })).toEqual({
      keysym: KP_3,
      modifiers: ['control'],
    });
  });

  it("the keypad's operators type their characters", () => {
    expect(pressedKey(KP_ADD, KP_ADD, [], off)).toEqual({ keysym: KP_ADD, modifiers: [], text: '+' });
    expect(pressedKey(0xffbd, 0xffbd, [], off).text).toBe('=');
  });

  it('Caps Lock turns the case of letters only, and Shift turns it back', () => {
    const a = [0x61, 0x41] as const;
    expect(pressedKey(...a, [], { ...off, caps: true })).toEqual({ keysym: 0x61, modifiers: [], text: 'A' });
    expect(pressedKey(...a, ['shift'], { ...off, caps: true })).toEqual({
      keysym: 0x61,
      modifiers: ['shift'],
      text: 'a',
    });
    expect(pressedKey(0x31, 0x21, [], { ...off, caps: true }).text).toBe('1');
    expect(pressedKey(0x31, 0x21, ['shift'], { ...off, caps: true }).text).toBe('!');
    expect(pressedKey(...a, ['control'], { ...off, caps: true })).toEqual({
      keysym: 0x61,
      modifiers: ['control'],
    });
  });
});
