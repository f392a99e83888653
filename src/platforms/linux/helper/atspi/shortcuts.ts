/**
 * Keyboard shortcuts from AT-SPI key bindings, written the way press_key takes them ("Ctrl+S", "Ctrl+Shift+N",
 * "Alt+Up", "F11"). GTK writes an action's key binding as "mnemonic;mnemonic path;accelerator", e.g.
 * "s;<Alt>f:s;<Primary>s": only the accelerator is a shortcut that works from anywhere in the window.
 */

/** GTK accelerator modifiers (gtk_accelerator_parse spellings) and how press_key names them. */
const MODIFIERS: Record<string, string> = {
  primary: 'Ctrl',
  control: 'Ctrl',
  ctrl: 'Ctrl',
  ctl: 'Ctrl',
  shift: 'Shift',
  shft: 'Shift',
  alt: 'Alt',
  mod1: 'Alt',
  super: 'Super',
  meta: 'Meta',
  hyper: 'Hyper',
};
const ORDER = ['Ctrl', 'Alt', 'Shift', 'Super', 'Meta', 'Hyper'];

/** X keysym names whose press_key name or character reads better. */
const KEYS: Record<string, string> = {
  Return: 'Enter',
  BackSpace: 'Backspace',
  Page_Up: 'PageUp',
  Prior: 'PageUp',
  Page_Down: 'PageDown',
  Next: 'PageDown',
  plus: '+',
  minus: '-',
  equal: '=',
  comma: ',',
  period: '.',
  slash: '/',
  backslash: '\\',
  semicolon: ';',
  apostrophe: "'",
  grave: '`',
  bracketleft: '[',
  bracketright: ']',
  space: 'Space',
};

/** An accelerator such as "<Primary><Shift>s" or "F11" in press_key's form; undefined when it holds no key. */
export function acceleratorText(accelerator: string): string | undefined {
  const match = /^((?:<[A-Za-z0-9]+>)*)\s*([^<\s]\S*)$/.exec(accelerator.trim());
  if (!match) return undefined;
  const [, mods = '', key = ''] = match;
  const names = new Set<string>();
  for (const [, mod = ''] of mods.matchAll(/<([A-Za-z0-9]+)>/g)) {
    const name = MODIFIERS[mod.toLowerCase()];
    if (name === undefined) return undefined;
    names.add(name);
  }
  const keyName = KEYS[key] ?? (key.length === 1 ? key.toUpperCase() : key);
  return [...ORDER.filter((m) => names.has(m)), keyName].join('+');
}

/**
 * The shortcut in an action's key binding: GTK's third field, the accelerator. A binding of one field is taken
 * only when it cannot be a bare mnemonic letter (it has a modifier, or names a key such as F11).
 */
export function shortcutOf(keyBinding: string): string | undefined {
  const fields = keyBinding.split(';');
  const accelerator = fields.length >= 3 ? (fields[2] ?? '') : fields.length === 1 ? (fields[0] ?? '') : '';
  if (fields.length === 1 && !/^<|^\S{2,}$/.test(accelerator.trim())) return undefined;
  return accelerator.trim() === '' ? undefined : acceleratorText(accelerator);
}
