/**
 * Key names as agents write them, and the codes each platform's helper presses: the macOS virtual key code
 * (kVK_*, ANSI layout) and the X keysym, side by side. One table serves both platforms so that a chord means the
 * same key everywhere.
 */
import { MacpilotError } from './errors.js';
import { nearestNames } from './text.js';
import type { Modifier } from './helper-client/protocol.js';

export interface KeyCodes {
  /** macOS virtual key code. */
  mac: number;
  /** X keysym. */
  x: number;
}

export interface Key extends KeyCodes {
  /** The canonical name, e.g. "pageup". */
  name: string;
}

export interface Chord {
  key: Key;
  /** Each at most once, in the order written. */
  modifiers: Modifier[];
}

export type Platform = 'linux' | 'darwin';

/** Canonical key names with their codes. */
const KEYS: Record<string, KeyCodes> = {
  enter: { mac: 0x24, x: 0xff0d },
  escape: { mac: 0x35, x: 0xff1b },
  tab: { mac: 0x30, x: 0xff09 },
  /** Forward delete; "backspace" deletes backwards (the Mac's "delete" key). */
  delete: { mac: 0x75, x: 0xffff },
  backspace: { mac: 0x33, x: 0xff08 },
  space: { mac: 0x31, x: 0x0020 },
  up: { mac: 0x7e, x: 0xff52 },
  down: { mac: 0x7d, x: 0xff54 },
  left: { mac: 0x7b, x: 0xff51 },
  right: { mac: 0x7c, x: 0xff53 },
  home: { mac: 0x73, x: 0xff50 },
  end: { mac: 0x77, x: 0xff57 },
  pageup: { mac: 0x74, x: 0xff55 },
  pagedown: { mac: 0x79, x: 0xff56 },
  f1: { mac: 0x7a, x: 0xffbe },
  f2: { mac: 0x78, x: 0xffbf },
  f3: { mac: 0x63, x: 0xffc0 },
  f4: { mac: 0x76, x: 0xffc1 },
  f5: { mac: 0x60, x: 0xffc2 },
  f6: { mac: 0x61, x: 0xffc3 },
  f7: { mac: 0x62, x: 0xffc4 },
  f8: { mac: 0x64, x: 0xffc5 },
  f9: { mac: 0x65, x: 0xffc6 },
  f10: { mac: 0x6d, x: 0xffc7 },
  f11: { mac: 0x67, x: 0xffc8 },
  f12: { mac: 0x6f, x: 0xffc9 },
  f13: { mac: 0x69, x: 0xffca },
  f14: { mac: 0x6b, x: 0xffcb },
  f15: { mac: 0x71, x: 0xffcc },
  f16: { mac: 0x6a, x: 0xffcd },
  f17: { mac: 0x40, x: 0xffce },
  f18: { mac: 0x4f, x: 0xffcf },
  f19: { mac: 0x50, x: 0xffd0 },
  f20: { mac: 0x5a, x: 0xffd1 },
  /** A Mac keyboard's Help key sits where a PC keyboard has Insert, and sends its code. */
  insert: { mac: 0x72, x: 0xff63 },
  /** The context menu key (macOS: kVK_ContextualMenu). */
  menu: { mac: 0x6e, x: 0xff67 },
  /** A PC keyboard's Print Screen, Scroll Lock and Pause reach macOS as F13, F14 and F15. */
  printscreen: { mac: 0x69, x: 0xff61 },
  scrolllock: { mac: 0x6b, x: 0xff14 },
  pause: { mac: 0x71, x: 0xff13 },
  /** The numeric keypad (macOS: kVK_ANSI_Keypad*; X: KP_*, the digits as typed with Num Lock on). */
  numpad0: { mac: 0x52, x: 0xffb0 },
  numpad1: { mac: 0x53, x: 0xffb1 },
  numpad2: { mac: 0x54, x: 0xffb2 },
  numpad3: { mac: 0x55, x: 0xffb3 },
  numpad4: { mac: 0x56, x: 0xffb4 },
  numpad5: { mac: 0x57, x: 0xffb5 },
  numpad6: { mac: 0x58, x: 0xffb6 },
  numpad7: { mac: 0x59, x: 0xffb7 },
  numpad8: { mac: 0x5b, x: 0xffb8 },
  numpad9: { mac: 0x5c, x: 0xffb9 },
  numpaddecimal: { mac: 0x41, x: 0xffae },
  numpadplus: { mac: 0x45, x: 0xffab },
  numpadminus: { mac: 0x4e, x: 0xffad },
  numpadmultiply: { mac: 0x43, x: 0xffaa },
  numpaddivide: { mac: 0x4b, x: 0xffaf },
  numpadequal: { mac: 0x51, x: 0xffbd },
  numpadenter: { mac: 0x4c, x: 0xff8d },
  a: { mac: 0x00, x: 0x61 },
  b: { mac: 0x0b, x: 0x62 },
  c: { mac: 0x08, x: 0x63 },
  d: { mac: 0x02, x: 0x64 },
  e: { mac: 0x0e, x: 0x65 },
  f: { mac: 0x03, x: 0x66 },
  g: { mac: 0x05, x: 0x67 },
  h: { mac: 0x04, x: 0x68 },
  i: { mac: 0x22, x: 0x69 },
  j: { mac: 0x26, x: 0x6a },
  k: { mac: 0x28, x: 0x6b },
  l: { mac: 0x25, x: 0x6c },
  m: { mac: 0x2e, x: 0x6d },
  n: { mac: 0x2d, x: 0x6e },
  o: { mac: 0x1f, x: 0x6f },
  p: { mac: 0x23, x: 0x70 },
  q: { mac: 0x0c, x: 0x71 },
  r: { mac: 0x0f, x: 0x72 },
  s: { mac: 0x01, x: 0x73 },
  t: { mac: 0x11, x: 0x74 },
  u: { mac: 0x20, x: 0x75 },
  v: { mac: 0x09, x: 0x76 },
  w: { mac: 0x0d, x: 0x77 },
  x: { mac: 0x07, x: 0x78 },
  y: { mac: 0x10, x: 0x79 },
  z: { mac: 0x06, x: 0x7a },
  '0': { mac: 0x1d, x: 0x30 },
  '1': { mac: 0x12, x: 0x31 },
  '2': { mac: 0x13, x: 0x32 },
  '3': { mac: 0x14, x: 0x33 },
  '4': { mac: 0x15, x: 0x34 },
  '5': { mac: 0x17, x: 0x35 },
  '6': { mac: 0x16, x: 0x36 },
  '7': { mac: 0x1a, x: 0x37 },
  '8': { mac: 0x1c, x: 0x38 },
  '9': { mac: 0x19, x: 0x39 },
  comma: { mac: 0x2b, x: 0x2c },
  period: { mac: 0x2f, x: 0x2e },
  slash: { mac: 0x2c, x: 0x2f },
  minus: { mac: 0x1b, x: 0x2d },
  equal: { mac: 0x18, x: 0x3d },
  semicolon: { mac: 0x29, x: 0x3b },
  quote: { mac: 0x27, x: 0x27 },
  backquote: { mac: 0x32, x: 0x60 },
  bracketleft: { mac: 0x21, x: 0x5b },
  bracketright: { mac: 0x1e, x: 0x5d },
  backslash: { mac: 0x2a, x: 0x5c },
  /** Shift+= on US keyboards; the Mac presses "=", which is what Mac apps mean by Cmd++. */
  plus: { mac: 0x18, x: 0x2b },
};

/** Other spellings, after normalizing (lower case; spaces, "_" and "-" dropped from names longer than one). */
const KEY_ALIASES: Record<string, string> = {
  return: 'enter',
  esc: 'escape',
  del: 'delete',
  forwarddelete: 'delete',
  bksp: 'backspace',
  spacebar: 'space',
  ' ': 'space',
  arrowup: 'up',
  uparrow: 'up',
  arrowdown: 'down',
  downarrow: 'down',
  arrowleft: 'left',
  leftarrow: 'left',
  arrowright: 'right',
  rightarrow: 'right',
  pgup: 'pageup',
  pgdn: 'pagedown',
  pgdown: 'pagedown',
  ',': 'comma',
  '.': 'period',
  dot: 'period',
  '/': 'slash',
  '-': 'minus',
  dash: 'minus',
  hyphen: 'minus',
  '=': 'equal',
  equals: 'equal',
  ';': 'semicolon',
  "'": 'quote',
  apostrophe: 'quote',
  '`': 'backquote',
  grave: 'backquote',
  backtick: 'backquote',
  '[': 'bracketleft',
  leftbracket: 'bracketleft',
  ']': 'bracketright',
  rightbracket: 'bracketright',
  '\\': 'backslash',
  '+': 'plus',
  print: 'printscreen',
  prtsc: 'printscreen',
  prtscn: 'printscreen',
  ...Object.fromEntries(
    [
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      'decimal',
      'plus',
      'minus',
      'multiply',
      'divide',
      'equal',
      'enter',
    ].flatMap((key) => [`kp${key}`, `keypad${key}`].map((alias) => [alias, `numpad${key}`])),
  ),
};

const MODIFIER_ALIASES: Record<string, Modifier> = {
  cmd: 'command',
  command: 'command',
  meta: 'command',
  ctrl: 'control',
  control: 'control',
  ctl: 'control',
  alt: 'option',
  option: 'option',
  opt: 'option',
  shift: 'shift',
  super: 'super',
  win: 'super',
  windows: 'super',
  fn: 'fn',
};

export const KEY_NAMES: readonly string[] = Object.keys(KEYS);

const normalize = (name: string): string => {
  const lower = name.toLowerCase();
  return lower.length > 1 ? lower.replace(/[\s_-]+/g, '') : lower;
};

const listing = () =>
  `${KEY_NAMES.filter((n) => (n.length > 1 || !/[a-z0-9]/.test(n)) && !n.startsWith('numpad')).join(', ')}, ` +
  'numpad0-numpad9 (and numpadenter, numpadplus, ...), a-z, 0-9, ' +
  'the characters , . / - = ; \' ` [ ] \\ + (aliases: return, esc, arrowup, page_up, "page up", ...)';

/** A key by name or character, e.g. "Enter", "page up", "F5", "a", "/". */
export function parseKey(name: string): Key {
  const normalized = normalize(name);
  const canonical = KEY_ALIASES[normalized] ?? normalized;
  const codes = KEYS[canonical];
  if (!codes) {
    const near = nearestNames(normalized, [...KEY_NAMES, ...Object.keys(KEY_ALIASES)]);
    throw new MacpilotError({
      what: `Unknown key ${JSON.stringify(name)}${near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''}`,
      why: `the key names are: ${listing()}`,
      next: 'use one of those names, or type_text for text and characters not listed',
      kind: 'unknown_key',
      concerns: ['key'],
    });
  }
  return { name: canonical, ...codes };
}

/** The canonical name of the key a platform's code presses (an X keysym, a macOS virtual key code), if listed. */
export function keyNamed(code: number, platform: Platform): string | undefined {
  const field = platform === 'linux' ? 'x' : 'mac';
  return Object.entries(KEYS).find(([, codes]) => codes[field] === code)?.[0];
}

/** A modifier by any of its names ("cmd", "Command", "ctrl", "alt", "opt", "win", ...). */
export function parseModifier(name: string): Modifier {
  const modifier = MODIFIER_ALIASES[normalize(name)];
  if (!modifier) {
    throw new MacpilotError({
      what: `Unknown modifier ${JSON.stringify(name)}`,
      why: `the modifiers are: ${Object.keys(MODIFIER_ALIASES).join(', ')}`,
      next: 'write a chord as modifiers and one key joined by "+", e.g. "ctrl+shift+s" or "cmd+z"',
      kind: 'unknown_modifier',
      concerns: ['key', 'modifiers'],
    });
  }
  return modifier;
}

/**
 * A chord such as "ctrl+shift+s", "Command+Shift+Z", "cmd++" or a bare key name; `extra` modifiers are added
 * to those written in the chord.
 */
export function parseChord(chord: string, extra: readonly string[] = []): Chord {
  const trimmed = chord.trim();
  // "+" as the key: "cmd++" or a lone "+".
  const plus = trimmed === '+' || trimmed.endsWith('++');
  const parts = (plus ? trimmed.slice(0, -1) : trimmed).split('+').map((p) => p.trim());
  const keyName = plus ? '+' : (parts.pop() ?? '');
  if (plus) parts.pop();
  if (keyName === '') {
    throw new MacpilotError({
      what: `No key in ${JSON.stringify(chord)}`,
      why: 'a chord is modifiers and one key joined by "+"',
      next: 'write e.g. "ctrl+s", "cmd+shift+z" or just "enter"',
      kind: 'no_key',
      concerns: ['key'],
    });
  }
  const last = normalize(keyName);
  if (MODIFIER_ALIASES[last] !== undefined && KEYS[KEY_ALIASES[last] ?? last] === undefined) {
    throw new MacpilotError({
      what: `No key in ${JSON.stringify(chord)}: ${JSON.stringify(keyName)} is a modifier`,
      why: 'a chord is modifiers and one key joined by "+", the key last; a modifier alone presses nothing',
      next: 'end the chord with a key, e.g. "ctrl+alt+t"; key_down holds a modifier down by itself',
      kind: 'no_key',
      concerns: ['key'],
    });
  }
  const modifiers: Modifier[] = [];
  for (const name of [...parts, ...extra]) {
    const modifier = parseModifier(name);
    if (!modifiers.includes(modifier)) modifiers.push(modifier);
  }
  return { key: parseKey(keyName), modifiers };
}

/** The code the helper of `platform` presses for `key`. */
export const codeFor = (key: KeyCodes, platform: Platform): number =>
  platform === 'darwin' ? key.mac : key.x;
