/** Menu paths as people write them: "File > Save As…", for app menus and status bar menus alike. */
import { MacpilotError } from './errors.js';

/** "File > Save As…" as its names; empty parts are an error. */
export function parseMenuPath(text: string): string[] {
  const names = text.split('>').map((part) => part.trim());
  if (names.some((n) => n === '')) {
    throw new MacpilotError({
      kind: 'malformed_menu_path',
      what: `Malformed menu path ${JSON.stringify(text)}`,
      why: 'a menu path is menu names separated by ">", each non-empty',
      next: 'write it as the menus read, e.g. "File > Save As…" or "View > Color Scheme > Classic"',
    });
  }
  return names;
}

/** Names as a menu path: "File > Save As…". */
export const joinNames = (names: readonly string[]): string => names.join(' > ');
