/**
 * What Linux can check of the macOS packaging: the build and release scripts parse (and pass shellcheck), name
 * the same files the installer looks for, and the npm packages are laid out as the installer expects.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  APP_NAME,
  DARWIN_PACKAGE,
  EXECUTABLE,
  releaseAsset,
} from '../../../../src/platforms/macos/bundle.js';
import { CHECKSUMS_FILE } from '../../../../src/platforms/macos/checksums.js';
import { temporaryFolder } from '../../../support/temp.js';

const BUILD = 'scripts/build-macos-helper.sh';
const RELEASE = 'scripts/release-macos-helper.sh';
/** The macOS suite's scripts: the runner's permission grant and a Mac owner's one command. */
const SUITE = ['scripts/macos-grant-tcc.sh', 'scripts/test-macos.sh'];
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const main = json('package.json');

describe('build and release scripts', () => {
  test.each([BUILD, RELEASE, ...SUITE])('%s parses and passes shellcheck', (script) => {
    expect(spawnSync('bash', ['-n', script], { encoding: 'utf8' }).stderr).toBe('');
    execFileSync('shellcheck', [script]);
  });

  test('they build and publish what the installer looks for', () => {
    const build = readFileSync(BUILD, 'utf8');
    const release = readFileSync(RELEASE, 'utf8');
    for (const script of [build, release]) expect(script).toContain(`readonly APP_NAME='${APP_NAME}'`);
    expect(build).toContain(`readonly EXECUTABLE='${EXECUTABLE}'`);
    expect(releaseAsset('$version')).toBe(/^asset="(.+)"$/m.exec(release)?.[1]);
    expect(release).toContain(`"${CHECKSUMS_FILE}"`);
    expect(release).toContain(`packages/${DARWIN_PACKAGE}`);
  });
});

describe('npm packages', () => {
  test('macpilot-darwin installs on Macs only, carries the app, and has the version of macpilot', () => {
    const darwin = json(`packages/${DARWIN_PACKAGE}/package.json`);
    expect(darwin).toMatchObject({
      name: DARWIN_PACKAGE,
      version: main.version,
      os: ['darwin'],
      cpu: ['arm64', 'x64'],
      files: [APP_NAME],
    });
  });

  test('macpilot ships the checksums and the postinstall script', () => {
    expect(main.files).toEqual(expect.arrayContaining([CHECKSUMS_FILE, 'scripts/postinstall.mjs']));
    expect((main.scripts as Record<string, string>).postinstall).toBe('node scripts/postinstall.mjs');
  });

  test('postinstall does nothing on Linux and succeeds', () => {
    const home = temporaryFolder('macpilot-home-');
    const run = spawnSync(process.execPath, ['scripts/postinstall.mjs'], {
      env: { ...process.env, HOME: home },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).toBe('');
    expect(existsSync(join(home, 'Library'))).toBe(false);
  });
});
