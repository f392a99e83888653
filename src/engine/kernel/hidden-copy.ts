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

/**
 * A refusal of a hidden app's copy or selection: to the agent, an app hidden from it; to the person at a terminal,
 * the app and the setting (`by`, the lists' refusal of that app).
 */
export function hiddenCopyRefusal(what: string, why: string, next: string, by: AppRefused): AppRefused {
  const said = by.forPerson();
  return new AppRefused({
    what: `${what} in an app hidden from you`,
    why,
    next,
    kind: 'app_off_limits',
    refusal: true,
    person: {
      what: `${what} in an app your app lists hide from agents`,
      why: `${said.what}: ${said.why}`,
      // The person may not want to change the lists for it: what the agent is told to wait for comes first.
      next: `${next.replace(/^ask the person for what you need; /, '')}; or, to let agents use that app: ${said.next}`,
    },
  });
}

/** The refusal of a read of the clipboard that holds a hidden app's copy (`by`: the lists' refusal of that app). */
export const clipboardReadRefusal = (by: AppRefused): AppRefused =>
  hiddenCopyRefusal(
    'Not read: the clipboard holds what was copied',
    "the person's app lists hide that app, and what it copies (a password) with it",
    'ask the person for what you need; the clipboard reads again once anything else is copied',
    by,
  );

export class HiddenCopy {
  private by: AppRefused | undefined;
  /** Waits until what the clipboard holds now is judged (the clipboard history's reads, set by it). */
  settle: () => Promise<void> = () => Promise.resolve();

  /** Said when the clipboard changes: the lists' refusal of the app that copied what it holds now, if hidden. */
  set(by: AppRefused | undefined): void {
    this.by = by;
  }

  /** The lists' refusal of the hidden app whose copy the clipboard holds, the changes heard so far judged. */
  async holds(): Promise<AppRefused | undefined> {
    await this.settle().catch(() => {});
    return this.by;
  }

  /** Refuses `what` (a paste: "press ctrl+v", `click menu item "Edit > Paste"`) while the clipboard holds it. */
  async refusePaste(what: string): Promise<void> {
    const by = await this.holds();
    if (!by) return;
    throw hiddenCopyRefusal(
      `Not done: ${what} would paste what was copied`,
      "the person's app lists hide that app, and what it copies (a password) with it",
      'ask the person for what you need; pasting works again once anything else is copied',
      by,
    );
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
    const by = owner.pid === undefined ? undefined : await resolver.hides(owner.pid, call);
    if (!by) return;
    throw hiddenCopyRefusal(
      `Not done: ${what} would paste the text selected last, which was selected`,
      "the person's app lists hide that app, and what is selected in it (a password) with it",
      'ask the person for what you need; this works again once text is selected in another app',
      by,
    );
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
