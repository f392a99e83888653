/**
 * Puts the helper app of this macpilot version at its stable per-user path, from the first source that has it:
 * the app already installed there, the macpilot-darwin npm package, or a verified download of the release.
 */
import { constants } from 'node:fs';
import { access, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MacpilotError } from '../../errors.js';
import {
  APP_NAME,
  binaryIn,
  DARWIN_PACKAGE,
  installLocation,
  type InstallLocation,
  releaseAsset,
  releaseUrl,
} from './bundle.js';
import { expectedChecksum } from './checksums.js';
import { downloadApp } from './download.js';

export type HelperSource = 'installed' | 'package' | 'download';

export interface EnsureOptions {
  version: string;
  /** Where macpilot's package.json is: its checksums and its optional dependency are found from there. */
  packageRoot: string;
  home?: string;
  /** The release asset's URL; the GitHub release of `version` by default. */
  url?: string;
  signal?: AbortSignal;
}

const isExecutable = (path: string) =>
  access(path, constants.X_OK).then(
    () => true,
    () => false,
  );

async function installedVersion(place: InstallLocation): Promise<string | undefined> {
  const version = await readFile(place.versionFile, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  return version !== undefined && (await isExecutable(place.binary)) ? version : undefined;
}

/** The app inside the macpilot-darwin package, when npm installed it for this very version. */
async function packagedApp(packageRoot: string, version: string): Promise<string | undefined> {
  let manifest: string;
  try {
    manifest = createRequire(join(packageRoot, 'package.json')).resolve(`${DARWIN_PACKAGE}/package.json`);
  } catch {
    return undefined;
  }
  const { version: packaged } = JSON.parse(await readFile(manifest, 'utf8')) as { version?: string };
  const app = join(dirname(manifest), APP_NAME);
  return packaged === version && (await isExecutable(binaryIn(app))) ? app : undefined;
}

/**
 * Builds the app in a staging directory beside its final place, then swaps it in and records its version last,
 * so that an interrupted install is never taken for a complete one.
 */
async function installApp(
  place: InstallLocation,
  version: string,
  fill: (staging: string, stagedApp: string) => Promise<void>,
): Promise<void> {
  await mkdir(place.dir, { recursive: true });
  const staging = await mkdtemp(join(place.dir, '.staging-'));
  try {
    const staged = join(staging, APP_NAME);
    await fill(staging, staged);
    if (!(await isExecutable(binaryIn(staged)))) {
      throw new MacpilotError({
        what: 'The macOS helper app is incomplete',
        why: `${binaryIn(staged)} is missing or not executable`,
        next: 'reinstall macpilot; if it persists, report it with `macpilot doctor`',
        kind: 'helper_incomplete',
      });
    }
    await rm(place.versionFile, { force: true });
    await rm(place.app, { recursive: true, force: true });
    await rename(staged, place.app);
    await writeFile(place.versionFile, `${version}\n`);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Makes sure the helper app of `version` is at the stable path; says where it came from. */
export async function ensureHelper(
  options: EnsureOptions,
): Promise<{ binary: string; source: HelperSource }> {
  const { version, packageRoot, signal } = options;
  const place = installLocation(options.home);
  if ((await installedVersion(place)) === version) return { binary: place.binary, source: 'installed' };

  const packaged = await packagedApp(packageRoot, version);
  if (packaged) {
    await installApp(place, version, (_staging, staged) => cp(packaged, staged, { recursive: true }));
    return { binary: place.binary, source: 'package' };
  }

  const asset = releaseAsset(version);
  const download = {
    url: options.url ?? releaseUrl(version),
    asset,
    version,
    sha256: await expectedChecksum(packageRoot, version, asset),
  };
  await installApp(place, version, (staging) => downloadApp(download, place, staging, signal));
  return { binary: place.binary, source: 'download' };
}
