/**
 * Where the installed package lives, found from this module upwards, so that the answer is the same whether the
 * code runs from src/ (tests and tsx) or from a bundle in dist/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'macpilot'
    ) {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`macpilot's package.json not found above ${from}`);
  }
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
