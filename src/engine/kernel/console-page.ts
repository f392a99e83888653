/**
 * macpilot's console, open in a browser, is the person's: its Allow buttons grant consent and its timeline shows
 * what the app lists hide. A browser is an app agents may operate, so the console's document (by its title, the
 * one console/index.html gives it) is walked as a leaf, never into, and an element inside it is refused as a
 * target. The console itself also refuses an allow that comes while an agent acts (src/console/hub.ts).
 */
import { MacpilotError } from '../../errors.js';
import { parsePath } from './paths.js';
import type { Role } from './roles.js';

export const CONSOLE_PAGE_TITLE = 'macpilot console';

export const isConsolePage = (role: Role, name: string): boolean =>
  role === 'document' && name === CONSOLE_PAGE_TITLE;

/** Whether an element path leads into the console's document (a path that does not parse leads nowhere). */
export function insideConsolePage(path: string): boolean {
  try {
    const { segments } = parsePath(path);
    return segments.slice(0, -1).some((s) => s.name !== undefined && isConsolePage(s.role, s.name));
  } catch {
    return false;
  }
}

export function refuseConsolePage(path: string): void {
  if (insideConsolePage(path)) throw consolePageRefusal();
}

export function consolePageRefusal(): MacpilotError {
  return new MacpilotError({
    what: "Not done: that element is in macpilot's console, which is the person's",
    why: 'agents may neither read nor act on the page where the person watches them and answers their questions',
    next: 'ask the person to answer there; act on other pages and apps',
    kind: 'app_off_limits',
    refusal: true,
  });
}
