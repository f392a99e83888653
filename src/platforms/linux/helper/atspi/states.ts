/** AT-SPI state bits (AtspiStateType) and their mapping to the normalized ElementState words. */
import type { ElementState } from '../../../../helper-client/protocol.js';

export const State = {
  ACTIVE: 1,
  BUSY: 3,
  CHECKED: 4,
  DEFUNCT: 6,
  EDITABLE: 7,
  ENABLED: 8,
  EXPANDABLE: 9,
  EXPANDED: 10,
  FOCUSABLE: 11,
  FOCUSED: 12,
  ICONIFIED: 15,
  MODAL: 16,
  MULTI_LINE: 17,
  PRESSED: 20,
  SELECTABLE: 22,
  SELECTED: 23,
  SENSITIVE: 24,
  SHOWING: 25,
  VISIBLE: 30,
  INDETERMINATE: 32,
  REQUIRED: 33,
  INVALID_ENTRY: 36,
  IS_DEFAULT: 39,
  READ_ONLY: 43,
} as const;

/** The two 32-bit words of GetState. */
export type StateBits = readonly [number, number];

export function asStateBits(value: unknown): StateBits {
  const words = Array.isArray(value) ? value : [];
  return [Number(words[0] ?? 0) >>> 0, Number(words[1] ?? 0) >>> 0];
}

export const stateBitsOf = (states: readonly number[]): StateBits => {
  let low = 0;
  let high = 0;
  for (const s of states) {
    if (s < 32) low |= 1 << s;
    else high |= 1 << (s - 32);
  }
  return [low >>> 0, high >>> 0];
};

export const has = (bits: StateBits, state: number): boolean =>
  (((state < 32 ? bits[0] : bits[1]) >>> (state & 31)) & 1) === 1;

/** Roles whose value is their checked state. */
export const TOGGLE_ROLES = new Set([
  'check box',
  'toggle button',
  'radio button',
  'check menu item',
  'radio menu item',
  'switch',
]);

export const SECURE_ROLE = 'password text';

/**
 * Whether an element is on screen. GTK4 (4.8) sets SHOWING on top-level windows only, so for its apps VISIBLE
 * is the best available signal.
 */
export function isShowing(bits: StateBits, showingReliable: boolean): boolean {
  return has(bits, showingReliable ? State.SHOWING : State.VISIBLE);
}

export function normalizeStates(bits: StateBits, role: string, showingReliable: boolean): ElementState[] {
  const out: ElementState[] = [];
  const add = (state: number, word: ElementState) => {
    if (has(bits, state)) out.push(word);
  };
  add(State.FOCUSED, 'focused');
  add(State.FOCUSABLE, 'focusable');
  if (role !== 'application') {
    if (!has(bits, State.SENSITIVE) && !has(bits, State.ENABLED)) out.push('disabled');
    if (!isShowing(bits, showingReliable)) out.push('offscreen');
  }
  add(State.SELECTED, 'selected');
  add(State.SELECTABLE, 'selectable');
  add(State.CHECKED, 'checked');
  if (TOGGLE_ROLES.has(role)) add(State.INDETERMINATE, 'mixed');
  add(State.PRESSED, 'pressed');
  if (has(bits, State.EXPANDABLE)) out.push(has(bits, State.EXPANDED) ? 'expanded' : 'collapsed');
  add(State.EDITABLE, 'editable');
  add(State.READ_ONLY, 'readonly');
  add(State.MULTI_LINE, 'multiline');
  if (role === SECURE_ROLE) out.push('secure');
  add(State.MODAL, 'modal');
  add(State.REQUIRED, 'required');
  add(State.INVALID_ENTRY, 'invalid');
  add(State.BUSY, 'busy');
  add(State.ACTIVE, 'active');
  add(State.ICONIFIED, 'minimized');
  add(State.IS_DEFAULT, 'default');
  return out;
}
