/** Element action names: agents' spellings matched to what the element offers. */

/** Lowercase, no separators, no AX prefix: "AXShowMenu" ≡ "show_menu" ≡ "showmenu". */
const compact = (action: string): string =>
  action
    .toLowerCase()
    .replace(/[\s_-]+/g, '')
    .replace(/^ax/, '');

/** Spellings of "press" across toolkits; an agent asking for one gets whichever the element has. */
const PRESS_ALIASES: ReadonlySet<string> = new Set(['press', 'click', 'activate']);

/** Actions a plain left click means, best first (AT-SPI and AX spellings compacted). */
const CLICK_LIKE = ['press', 'click', 'activate', 'toggle', 'jump', 'confirm', 'pick'];

/** The element's action that `wanted` names, or undefined. */
export function matchAction(available: readonly string[], wanted: string): string | undefined {
  const key = compact(wanted);
  const same = available.find((a) => compact(a) === key);
  if (same || !PRESS_ALIASES.has(key)) return same;
  return available.find((a) => PRESS_ALIASES.has(compact(a)));
}

/** The element's own action for a plain left click, or undefined. */
export function clickAction(available: readonly string[]): string | undefined {
  for (const kind of CLICK_LIKE) {
    const found = available.find((a) => compact(a) === kind);
    if (found) return found;
  }
  return undefined;
}
