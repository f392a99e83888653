/** X keysyms, as X11's XTEST and Mutter's RemoteDesktop both take keys: the characters of a text, the modifiers. */
import { HelperErrorCode, type Modifier } from '../../../helper-client/protocol.js';
import { HelperFailure } from '../errors.js';

/** The keysyms of the keys held for each modifier; "command" is the shortcut key, Control, on Linux. */
export const MODIFIER_KEYSYMS: Record<Exclude<Modifier, 'fn'>, number> = {
  command: 0xffe3, // Control_L
  control: 0xffe3,
  option: 0xffe9, // Alt_L
  shift: 0xffe1, // Shift_L
  super: 0xffeb, // Super_L
};
const RETURN = 0xff0d;
const TAB = 0xff09;
/** Keysyms of Latin-1 characters are their code points; any other character has 0x01000000 + code point. */
const UNICODE_KEYSYM = 0x01000000;

function keysymOf(codePoint: number, index: number): number {
  if (codePoint === 0x0a || codePoint === 0x0d) return RETURN;
  if (codePoint === 0x09) return TAB;
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      `character ${index + 1} of the text is a control character (U+${codePoint.toString(16).padStart(4, '0')}), which no key types`,
      'type text without control characters; press_key presses keys such as backspace or escape',
    );
  }
  return codePoint <= 0xff ? codePoint : UNICODE_KEYSYM + codePoint;
}

/** The text's keysyms; "\r\n" is one Return. Checked whole before any key is pressed. */
export function keysymsOf(text: string): number[] {
  const characters = [...text.replaceAll('\r\n', '\n')];
  return characters.map((c, i) => keysymOf(c.codePointAt(0) ?? 0, i));
}
