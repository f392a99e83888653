/**
 * The download fallback: the release's zip of the helper app, fetched over HTTPS, refused unless its SHA-256 is
 * the one this macpilot package ships, then unpacked. Failures say how to do the same by hand.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MacpilotError } from '../../errors.js';
import { APP_NAME, type InstallLocation } from './bundle.js';

/** A whole download, however slow the line: postinstall and first start must never hang. */
export const DOWNLOAD_TIMEOUT_MS = 120_000;

export interface Download {
  url: string;
  asset: string;
  sha256: string;
  version: string;
}

/** What to do without the network: which file, where it goes, how to check it. */
export function manualSteps(download: Download, place: InstallLocation): string {
  return [
    `install the helper by hand: 1) download ${download.url} (or copy "${APP_NAME}" out of the macpilot-darwin npm package of version ${download.version});`,
    `2) check it: \`shasum -a 256 ${download.asset}\` must print ${download.sha256};`,
    `3) unpack it: \`ditto -x -k ${download.asset} "${place.dir}"\`, which creates "${place.app}";`,
    `4) record its version: \`echo ${download.version} > "${place.versionFile}"\`;`,
    '5) run `macpilot doctor`. Or set MACPILOT_HELPER_PATH to the app wherever you put it.',
  ].join(' ');
}

async function fetchAsset(download: Download, place: InstallLocation, signal?: AbortSignal): Promise<Buffer> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  try {
    const response = await fetch(download.url, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    const cause =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : '';
    throw new MacpilotError({
      what: 'Could not download the macOS helper',
      why: `${download.url}: ${cause || String(error)}`,
      next: manualSteps(download, place),
      kind: 'helper_download_failed',
    });
  }
}

/** ditto keeps everything a signed bundle holds; unzip stands in where there is no ditto (the Linux tests). */
const unpack = (zip: string, into: string) =>
  process.platform === 'darwin'
    ? promisify(execFile)('ditto', ['-x', '-k', zip, into])
    : promisify(execFile)('unzip', ['-q', zip, '-d', into]);

/** Downloads, verifies and unpacks the app into `staging` (as staging/APP_NAME). */
export async function downloadApp(
  download: Download,
  place: InstallLocation,
  staging: string,
  signal?: AbortSignal,
): Promise<void> {
  const zip = await fetchAsset(download, place, signal);
  const actual = createHash('sha256').update(zip).digest('hex');
  if (actual !== download.sha256) {
    throw new MacpilotError({
      what: 'Refused the downloaded macOS helper',
      why:
        `${download.url} has SHA-256 ${actual}, but macpilot ${download.version} expects ${download.sha256}: ` +
        'the file is not the one this release published (altered on the way, or replaced); it was not installed',
      next: `retry later or from another network; if it persists, report it. Meanwhile ${manualSteps(download, place)}`,
      kind: 'helper_checksum_mismatch',
    });
  }
  const file = join(staging, download.asset);
  await writeFile(file, zip);
  await unpack(file, staging);
}
