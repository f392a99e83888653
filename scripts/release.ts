/**
 * `npm run release -- [--dry-run]`: a release, after the macOS helper was built, signed, notarized and stapled by
 * scripts/release-macos-helper.sh on a Mac (.github/workflows/release.yml runs both). In order:
 *   1. the versions agree: macpilot, macpilot-linux-ocr, macpilot-darwin and the pin of the OCR package;
 *   2. the helper's release files are there (zip, .sha256, release-checksums.json, the app in macpilot-darwin);
 *   3. the npm tarballs (`npm pack`): macpilot-linux-ocr, macpilot-darwin, then macpilot, whose package.json
 *      names macpilot-darwin as an optional dependency from here on;
 *   4. the MCP Bundles, one per platform, and their manifests validated (`mcpb validate`);
 *   5. SHA256SUMS over every file of the release, checked back;
 *   6. the upload: a draft GitHub release v<version> with the helper zip, its .sha256, the bundles and SHA256SUMS;
 *   7. the publish: `npm publish --provenance` of each tarball, the platform packages first; then the lockfile
 *      records macpilot-darwin (it can list a package only once the registry has it).
 * --dry-run runs every step but 6 and 7, which it prints instead, and leaves package.json and the lockfile as they
 * were; where a step cannot run here (the helper, off a Mac) it says so and goes on. Without --dry-run any missing
 * piece stops the release before it uploads or publishes anything.
 *
 * Options: --out DIR (default build/release/<version>); --sharp-prebuilds LIST (for the bundles, as
 * scripts/mcpb/pack.ts; "none" to stay offline, as the test does).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { APP_NAME, DARWIN_PACKAGE, releaseAsset } from '../src/platforms/macos/bundle.js';
import { ENGINE_PACKAGE } from '../src/platforms/linux/ocr/model.js';
import { mcpbManifest, type PackageJson } from './mcpb/manifest.js';
import { BUNDLE_PLATFORMS, packMcpb } from './mcpb/pack.js';

const ROOT = resolve(import.meta.dirname, '..');
const MCPB = join(ROOT, 'node_modules', '.bin', 'mcpb');

interface Manifest extends PackageJson {
  optionalDependencies?: Record<string, string>;
}
const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

class ReleaseError extends Error {}

export interface ReleaseOptions {
  dryRun: boolean;
  out?: string;
  sharpPrebuilds: readonly string[];
  /** Where each step's line goes. */
  say: (line: string) => void;
}

export function release(options: ReleaseOptions): { out: string; files: string[] } {
  const { dryRun, say } = options;
  const run = (file: string, args: string[], cwd = ROOT) =>
    execFileSync(file, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  /** A step that only a real release takes; a dry run prints it. */
  const act = (what: string, file: string, args: string[], cwd = ROOT) => {
    const shown = [file, ...args.map((arg) => (/[\s"']/.test(arg) ? JSON.stringify(arg) : arg))].join(' ');
    if (dryRun) say(`would run: ${shown}${cwd === ROOT ? '' : ` (in ${cwd})`}`);
    else {
      say(`${what}: ${shown}`);
      run(file, args, cwd);
    }
  };
  /** What a dry run notes and goes on from, and a release stops at. */
  const missing = (what: string) => {
    if (!dryRun) throw new ReleaseError(what);
    say(`skipped: ${what}`);
  };

  // 1. The versions.
  const main = readJson<Manifest>(join(ROOT, 'package.json'));
  const { version } = main;
  const packages = {
    [ENGINE_PACKAGE]: join(ROOT, 'packages', ENGINE_PACKAGE),
    [DARWIN_PACKAGE]: join(ROOT, 'packages', DARWIN_PACKAGE),
  };
  for (const [name, folder] of Object.entries(packages)) {
    const other = readJson<Manifest>(join(folder, 'package.json')).version;
    if (other !== version)
      throw new ReleaseError(`${name} is version ${other}, macpilot ${version}: set both`);
  }
  const pin = main.optionalDependencies?.[ENGINE_PACKAGE];
  if (pin !== version) throw new ReleaseError(`macpilot pins ${ENGINE_PACKAGE}@${pin}, not ${version}`);
  say(`version ${version}: macpilot, ${ENGINE_PACKAGE} and ${DARWIN_PACKAGE} agree`);

  const out = resolve(options.out ?? join(ROOT, 'build', 'release', version));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files: string[] = [];

  // 2. The helper's release files.
  const zip = join(ROOT, 'build', 'macos', releaseAsset(version));
  const checksums = join(ROOT, 'release-checksums.json');
  const helperReady =
    existsSync(zip) &&
    existsSync(`${zip}.sha256`) &&
    existsSync(join(packages[DARWIN_PACKAGE], APP_NAME)) &&
    existsSync(checksums) &&
    readJson<{ version: string }>(checksums).version === version;
  if (helperReady) {
    if (readJson<{ assets: Record<string, string> }>(checksums).assets[basename(zip)] !== sha256(zip)) {
      throw new ReleaseError(`release-checksums.json does not hold the SHA-256 of ${zip}`);
    }
    for (const file of [zip, `${zip}.sha256`]) {
      copyFileSync(file, join(out, basename(file)));
      files.push(basename(file));
    }
    say(`helper: ${basename(zip)}, checked against release-checksums.json`);
  } else {
    missing(
      `the macOS helper's release files for ${version} (scripts/release-macos-helper.sh makes them, on a Mac)`,
    );
  }

  // 3. The npm tarballs.
  const pack = (folder: string) => {
    const [packed] = JSON.parse(
      run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], folder),
    ) as { filename: string }[];
    if (!packed) throw new ReleaseError(`npm pack made nothing in ${folder}`);
    files.push(packed.filename);
    say(`packed: ${packed.filename}`);
    return join(out, packed.filename);
  };
  const tarballs = [pack(packages[ENGINE_PACKAGE])];
  const before = readFileSync(join(ROOT, 'package.json'));
  try {
    if (helperReady) {
      tarballs.push(pack(packages[DARWIN_PACKAGE]));
      run('npm', ['pkg', 'set', `optionalDependencies.${DARWIN_PACKAGE}=${version}`]);
      say(`macpilot names ${DARWIN_PACKAGE}@${version} as an optional dependency`);
    }
    tarballs.push(pack(ROOT));
  } finally {
    // A dry run leaves the checkout as it was; a release keeps the optional dependency for the commit after it.
    if (dryRun) writeFileSync(join(ROOT, 'package.json'), before);
  }

  // 4. The MCP Bundles.
  const manifest = mkdtempSync(join(tmpdir(), 'macpilot-release-'));
  try {
    for (const platform of BUNDLE_PLATFORMS) {
      const name = `macpilot-${platform}.mcpb`;
      const { bytes } = packMcpb({
        out: join(out, name),
        platform,
        sharpPrebuilds: options.sharpPrebuilds,
        warn: (message) => say(`warning: ${message}`),
      });
      const file = join(manifest, `${platform}.json`);
      writeFileSync(
        file,
        JSON.stringify(mcpbManifest(readJson<PackageJson>(join(ROOT, 'package.json')), platform)),
      );
      run(MCPB, ['validate', file]);
      files.push(name);
      say(`bundle: ${name}, ${(bytes / 1e6).toFixed(1)} MB, manifest valid`);
    }
  } finally {
    rmSync(manifest, { recursive: true, force: true });
  }

  // 5. The checksums, checked back.
  const sums = files.map((name) => `${sha256(join(out, name))}  ${name}\n`).join('');
  writeFileSync(join(out, 'SHA256SUMS'), sums);
  run('sha256sum', ['--check', '--quiet', 'SHA256SUMS'], out);
  say(`SHA256SUMS: ${files.length} files, checked`);

  // 6. The upload; 7. the publish.
  const assets = [...files.filter((name) => !name.endsWith('.tgz')), 'SHA256SUMS'].map((name) =>
    join(out, name),
  );
  act('upload', 'gh', [
    'release',
    'create',
    `v${version}`,
    '--draft',
    '--title',
    `macpilot ${version}`,
    ...assets,
  ]);
  // The platform packages first: an install of macpilot must find the versions it names.
  for (const tarball of tarballs)
    act('publish', 'npm', ['publish', tarball, '--provenance', '--access', 'public']);
  // The lockfile lists a package once the registry has it: the commit after the release records macpilot-darwin.
  if (helperReady) act('lock', 'npm', ['install', '--package-lock-only', '--ignore-scripts']);
  say(dryRun ? `dry run done: ${out} (nothing uploaded or published)` : `released ${version}`);
  return { out, files: [...files, 'SHA256SUMS'] };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      'dry-run': { type: 'boolean', default: false },
      out: { type: 'string' },
      'sharp-prebuilds': { type: 'string', default: 'darwin-arm64,darwin-x64' },
    },
  });
  try {
    release({
      dryRun: values['dry-run'],
      out: values.out,
      sharpPrebuilds: values['sharp-prebuilds'] === 'none' ? [] : values['sharp-prebuilds'].split(','),
      say: (line) => process.stdout.write(`${line}\n`),
    });
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    process.stderr.write(`release stopped: ${error.message}\n`);
    process.exitCode = 1;
  }
}
