/**
 * release-checksums.json: the SHA-256 of each release asset, written by scripts/release-macos-helper.sh and
 * shipped inside the main npm package, so that a downloaded helper is checked against what npm delivered.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { MacpilotError } from '../../errors.js';

export const CHECKSUMS_FILE = 'release-checksums.json';

const ReleaseChecksums = z.object({
  version: z.string(),
  /** Asset file name → lowercase hex SHA-256. */
  assets: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});

/** The expected SHA-256 of `asset` of release `version`, from the checksums in `packageRoot`. */
export async function expectedChecksum(packageRoot: string, version: string, asset: string): Promise<string> {
  const path = join(packageRoot, CHECKSUMS_FILE);
  const missing = (why: string) =>
    new MacpilotError({
      what: 'Cannot verify a downloaded macOS helper',
      why,
      next:
        'install macpilot from npm (its releases ship the helper and its checksums), or build the helper with ' +
        'scripts/build-macos-helper.sh and set MACPILOT_HELPER_PATH to the app',
      kind: 'helper_unverifiable',
    });
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw missing(
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `${path} is missing: this copy of macpilot is not a release build`
        : `${path} is not valid JSON`,
    );
  }
  const parsed = ReleaseChecksums.safeParse(json);
  if (!parsed.success) throw missing(`${path} is malformed (${parsed.error.issues[0]?.message})`);
  const sum = parsed.data.assets[asset];
  if (parsed.data.version !== version || sum === undefined) {
    throw missing(`${path} lists no checksum for ${asset} (it is for release ${parsed.data.version})`);
  }
  return sum;
}
