/** The macOS helper's app bundle: its names, where it is installed, and where a release publishes it. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The name macOS shows in System Settings > Privacy & Security is the bundle's: "macpilot Helper". */
export const APP_NAME = 'macpilot Helper.app';
export const EXECUTABLE = 'macpilot-helper';
/** The per-platform npm package that carries the signed app (packages/macpilot-darwin). */
export const DARWIN_PACKAGE = 'macpilot-darwin';
/** The one place that says where releases live; {version} and {asset} are filled in. */
export const RELEASE_URL_TEMPLATE =
  'https://github.com/macpilot/macpilot/releases/download/v{version}/{asset}';

export const releaseAsset = (version: string): string => `macpilot-helper-${version}-darwin-universal.zip`;

export const releaseUrl = (version: string): string =>
  RELEASE_URL_TEMPLATE.replace('{version}', version).replace('{asset}', releaseAsset(version));

export const binaryIn = (app: string): string => join(app, 'Contents', 'MacOS', EXECUTABLE);

export interface InstallLocation {
  dir: string;
  app: string;
  binary: string;
  /** The version of the app at `app`, written once it is complete. */
  versionFile: string;
}

/**
 * One path per user for every macpilot version: macOS ties permission grants to the app's path (with its
 * signature and bundle id), so an upgrade replaces the app here in place instead of installing beside it.
 */
export function installLocation(home: string = homedir()): InstallLocation {
  const dir = join(home, 'Library', 'Application Support', 'macpilot');
  const app = join(dir, APP_NAME);
  return { dir, app, binary: binaryIn(app), versionFile: join(dir, 'helper-version') };
}
