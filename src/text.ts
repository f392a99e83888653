/** Small string rules shared by paths, queries and rendering. */

/** A name as people type it: trimmed, whitespace collapsed, "…" spelled "..." (mousepad pads and dots its names). */
export function normalizeName(name: string): string {
  return name.replace(/…/g, '...').replace(/\s+/g, ' ').trim();
}

/**
 * The items whose name matches `wanted` after normalization: exact matches if there are any, otherwise
 * case-insensitive ones.
 */
export function matchByName<T>(items: readonly T[], nameOf: (item: T) => string, wanted: string): T[] {
  const target = normalizeName(wanted);
  const exact = items.filter((item) => normalizeName(nameOf(item)) === target);
  if (exact.length > 0) return exact;
  const folded = target.toLowerCase();
  return items.filter((item) => normalizeName(nameOf(item)).toLowerCase() === folded);
}

/**
 * Items by title: those matchByName finds, else those whose name contains `wanted` (case-insensitive), since
 * window titles carry changing parts ("*Untitled 1 - Mousepad").
 */
export function matchTitle<T>(items: readonly T[], nameOf: (item: T) => string, wanted: string): T[] {
  const exact = matchByName(items, nameOf, wanted);
  if (exact.length > 0) return exact;
  const part = normalizeName(wanted).toLowerCase();
  return items.filter((item) => normalizeName(nameOf(item)).toLowerCase().includes(part));
}

/** `text` cut to `max` characters with an ellipsis, whitespace collapsed. */
/** The text on one line, its runs of white space (newlines, padding) one space each: a name as shown. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

export function clip(text: string, max: number): string {
  const flat = oneLine(text);
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** "1 element" / "3 elements"; irregular plurals given. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** `850 ms`, `2.3 s`. */
export function duration(ms: number): string {
  const whole = Math.round(ms);
  return whole < 1000 ? `${whole} ms` : `${(whole / 1000).toFixed(1)} s`;
}

/** Edits (insert, delete or replace a character, swap two neighbours: "mdoe" for "mode") that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, replace);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] as number;
}

/** The few `names` closest to a mistyped `wanted` (at most two edits, or one for short names), closest first. */
export function nearestNames(wanted: string, names: readonly string[], most = 3): string[] {
  const lower = wanted.toLowerCase();
  // Two edits change half of a short word ("quit" into "wait"): only one counts there.
  const allowed = lower.length <= 4 ? 1 : 2;
  return names
    .map((name) => ({ name, distance: editDistance(lower, name.toLowerCase()) }))
    .filter((n) => n.distance <= allowed)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, most)
    .map((n) => n.name);
}

/** The sentence with its first letter capitalised. */
export const capitalize = (s: string): string => `${s[0]?.toUpperCase() ?? ''}${s.slice(1)}`;

/** A word in single quotes for a POSIX shell, its own quotes escaped (a home folder may be /home/o'brien). */
export const singleQuoted = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** A word as a shell reads it: as it is when plain, else in single quotes. */
export const shellQuote = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : singleQuoted(word);
