/**
 * A tool's text as the CLI prints it. Refs mean something only inside the process that issued them, so where
 * the text names an element by its ref (`button "OK" [ref=e12]`), the CLI names it by its path instead
 * (`button "OK" at app("zenity")/dialog/button["OK"]`), which the next command accepts.
 */
import type { RefTable } from '../engine/kernel/refs.js';

export function withPaths(text: string, refs: Pick<RefTable, 'known'>): string {
  const path = (ref: string) => refs.known(ref)?.path;
  return (
    text
      // get's answer: the path is on the next line.
      .replace(/^ref: e\d+\n(?=path: )/m, '')
      .replace(/\[ref=(e\d+)\]/g, (whole, ref: string) => {
        const known = path(ref);
        return known === undefined ? whole : `at ${known}`;
      })
      .replace(/\bref=(e\d+)\b/g, (whole, ref: string) => {
        const known = path(ref);
        return known === undefined ? whole : `path=${known}`;
      })
  );
}
