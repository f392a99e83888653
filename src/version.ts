import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (one level up from src/ and from dist/). */
export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
