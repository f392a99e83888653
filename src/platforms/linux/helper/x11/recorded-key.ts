/**
 * What a recorded key press meant, as the keyboard's state made it: Num Lock (or Shift) picks a keypad key's
 * digit or the cursor key it also is, and Caps Lock the case of a letter. The recorder keeps the locks' state.
 */
import type { Modifier } from '../../../../helper-client/protocol.js';

export const NUM_LOCK = 0xff7f;

export interface Locks {
  num: boolean;
  caps: boolean;
}

/** The keysyms of the lock keys, with the lock each turns. */
export const LOCK_KEYS: ReadonlyMap<number, keyof Locks> = new Map([
  [NUM_LOCK, 'num'],
  [0xffe5, 'caps'],
]);

export interface PressedKey {
  /** The keysym the key meant (a keypad key's digit or cursor key), which names it for press_key. */
  keysym: number;
  /** The modifiers held, less a Shift the key took for picking its level. */
  modifiers: Modifier[];
  /** The character typed, when it typed one. */
  text?: string;
}

/** The keypad's digits and decimal point: the level Num Lock picks. */
const isKeypadDigit = (keysym: number) => keysym === 0xffae || (keysym >= 0xffb0 && keysym <= 0xffb9);

/** The keypad's keys with Num Lock off (KP_Home to KP_Delete) are the keys Home to Delete. */
const KEYPAD_MOVES: ReadonlyMap<number, number> = new Map([
  [0xff95, 0xff50],
  [0xff96, 0xff51],
  [0xff97, 0xff52],
  [0xff98, 0xff53],
  [0xff99, 0xff54],
  [0xff9a, 0xff55],
  [0xff9b, 0xff56],
  [0xff9c, 0xff57],
  [0xff9e, 0xff63],
  [0xff9f, 0xffff],
]);

/** Keysyms of Latin-1 characters are their code points; other characters have 0x01000000 + code point. */
const UNICODE_KEYSYM = 0x01000000;

/** The character a keysym types, if it is one (not Enter, Tab, arrows, function keys...). */
export function characterOf(keysym: number): string | undefined {
  if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff)) {
    return String.fromCodePoint(keysym);
  }
  // The keypad's characters: KP_Multiply (0xffaa) to KP_9 (0xffb9) are "*" to "9", KP_Equal is "=".
  if ((keysym >= 0xffaa && keysym <= 0xffb9) || keysym === 0xffbd)
    return String.fromCodePoint(keysym - 0xff80);
  const codePoint = keysym - UNICODE_KEYSYM;
  if (codePoint >= 0xa0 && codePoint <= 0x10ffff) return String.fromCodePoint(codePoint);
  return undefined;
}

/** A key's press: `plain` and `shifted` are its two levels, `held` the modifier keys held. */
export function pressedKey(
  plain: number,
  shifted: number,
  held: readonly Modifier[],
  locks: Locks,
): PressedKey {
  const shift = held.includes('shift');
  const typedWith = (keysym: number, modifiers: Modifier[]): PressedKey => {
    const text = modifiers.every((m) => m === 'shift') ? characterOf(keysym) : undefined;
    return { keysym, modifiers, ...(text !== undefined ? { text } : {}) };
  };
  if (isKeypadDigit(shifted) && plain !== shifted) {
    // Shift turns Num Lock's choice over, and is spent on it.
    const modifiers = held.filter((m) => m !== 'shift');
    if (locks.num !== shift) return typedWith(shifted, modifiers);
    return { keysym: KEYPAD_MOVES.get(plain) ?? plain, modifiers };
  }
  const lower = characterOf(plain);
  const letter =
    lower !== undefined && lower !== lower.toUpperCase() && characterOf(shifted) === lower.toUpperCase();
  const upper = letter && locks.caps ? !shift : shift;
  const typed = typedWith(upper ? shifted : plain, [...held]);
  return { ...typed, keysym: plain };
}
