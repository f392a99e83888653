/**
 * Whether the clipboard holds what an app the person's lists hide copied (a password manager's password). An agent
 * may not read it (get_clipboard refuses), so it may not paste it either: a paste would put it in a field the
 * agent reads. The clipboard history says when such a copy arrives and when anything else replaces it.
 */
import type { Chord } from '../../keys.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { HelperPort } from './port.js';
import { AppRefused, type Resolver } from './resolve.js';

/** What pastes: Ctrl+V (Command+V on macOS, with Shift too) and Shift+Insert. */
export function pastes(chord: Chord): boolean {
  const key = chord.key.name.toLowerCase();
  const mods = new Set(chord.modifiers);
  if (key === 'v') return (mods.has('control') || mods.has('command')) && !mods.has('option');
  return key === 'insert' && mods.has('shift') && mods.size === 1;
}

/** A menu item or button that pastes, by its name ("Paste", "Paste Special…", "Paste and Match Style"). */
export const namedPaste = (name: string | undefined): boolean => /^\s*paste\b/i.test(name ?? '');

/** The roles that paste when pressed and named so; a field labelled "Paste your code" does not. */
export const PASTING_ROLES: ReadonlySet<string> = new Set(['button', 'menuitem', 'link']);

export class HiddenCopy {
  private held = false;
  /** Waits until what the clipboard holds now is judged (the clipboard history's reads, set by it). */
  settle: () => Promise<void> = () => Promise.resolve();

  /** Said when the clipboard changes: whether what it holds now came from a hidden app. */
  set(held: boolean): void {
    this.held = held;
  }

  /** Whether the clipboard holds a hidden app's copy, the changes heard so far judged. */
  async holds(): Promise<boolean> {
    await this.settle().catch(() => {});
    return this.held;
  }

  /** Refuses `what` (a paste: "press ctrl+v", `click menu item "Edit > Paste"`) while the clipboard holds it. */
  async refusePaste(what: string): Promise<void> {
    if (!(await this.holds())) return;
    throw new AppRefused({
      what: `Not done: ${what} would paste what was copied in an app hidden from you`,
      why: "the person's app lists hide that app, and what it copies (a password) with it",
      next: 'ask the person for what you need; pasting works again once anything else is copied',
      kind: 'app_off_limits',
      refusal: true,
    });
  }
}

/**
 * Refuses `what` (a middle click) while the text selected last, which a middle click pastes on X11 and Wayland, was
 * selected in an app the lists hide; where the helper cannot tell which app that was (Wayland), while one runs,
 * unless `unknownRefused` is false (a key that pastes the selection only in some apps).
 */
export async function refuseSelectionPaste(
  port: HelperPort,
  resolver: Resolver,
  what: string,
  call?: CallOptions,
  unknownRefused = true,
): Promise<void> {
  const owner = await port.call('clipboard.owner', { selection: 'primary' }, call);
  if (owner.known) {
    if (owner.pid === undefined || (await resolver.hides(owner.pid, call)) !== true) return;
    throw new AppRefused({
      what: `Not done: ${what} would paste the text selected last, which was selected in an app hidden from you`,
      why: "the person's app lists hide that app, and what is selected in it (a password) with it",
      next: 'ask the person for what you need; this works again once text is selected in another app',
      kind: 'app_off_limits',
      refusal: true,
    });
  }
  if (!unknownRefused || !(await resolver.hidesAny(call))) return;
  throw new AppRefused({
    what: `Not done: ${what} would paste the text selected last, and macpilot cannot tell in which app it was selected while an app hidden from you runs`,
    why: "this desktop does not say which app holds the selected text, and the person's app lists hide a running app",
    next: 'click with the left button, and paste what you copied yourself with ctrl+v',
    kind: 'app_off_limits',
    refusal: true,
  });
}
