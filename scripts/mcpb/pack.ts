/**
 * `npm run pack:mcpb`: builds the MCP Bundles Claude Desktop installs, one per platform: macpilot-darwin.mcpb and
 * macpilot-linux.mcpb. Each holds what the npm package holds for its platform (dist/, package.json, the release
 * checksums) plus the production packages npm would install there, copied from this checkout's node_modules as
 * package-lock.json lists them: those a package's `os` field or PLATFORM_ONLY keep to the other platform, and
 * everything only they depend on, stay out (macOS gets no OCR engine, D-Bus or X11; Linux no macOS prebuilds).
 * sharp's native packages for CPUs not installed here are fetched from the npm registry (a bundle declares
 * platforms, not CPUs: both Mac architectures go in). The server starts as `npx macpilot serve` does; on macOS it
 * installs its helper app at first start, as after `npm install`.
 *
 * Options: --platform darwin|linux (default: both); --out-dir DIR (default: the checkout); --sharp-prebuilds LIST
 * of os-cpu pairs to add to the bundles of their os (default darwin-arm64,darwin-x64; "none" to add nothing and
 * work offline, as the tests do); --staging DIR to keep the unpacked tree there (one platform only).
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mcpbManifest, type PackageJson } from './manifest.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const BUNDLE_PLATFORMS = ['darwin', 'linux'] as const;
export type BundlePlatform = (typeof BUNDLE_PLATFORMS)[number];

/**
 * What a bundle ships: what the npm package does (package.json's "files", package.json and the licence), less
 * what only npm's install runs, and less the files only the other platform uses.
 */
export function shippedFiles(root: string, platform: BundlePlatform): string[] {
  const { files = [] } = readJson<{ files?: string[] }>(join(root, 'package.json'));
  return [...files, 'package.json', 'LICENSE'].filter(
    (name) => !INSTALL_ONLY.includes(name) && (PLATFORM_FILES[name] ?? platform) === platform,
  );
}
/** npm's postinstall: a bundle is unpacked, not installed; the server puts the helper in place at first start. */
const INSTALL_ONLY = ['scripts/postinstall.mjs'];
/** Files, or files of dist/ by name, that one platform alone uses. */
const PLATFORM_FILES: Record<string, BundlePlatform> = {
  'gnome-extension': 'linux',
  'macpilot-linux-helper.js': 'linux',
  'release-checksums.json': 'darwin',
};
/** Dependencies macpilot loads on one platform only, although their packages install anywhere. */
export const PLATFORM_ONLY: Record<string, BundlePlatform> = { 'dbus-next': 'linux' };

interface LockEntry {
  dev?: boolean;
  link?: boolean;
  resolved?: string;
  os?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
interface PackageJsonDependencies {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const dependencyNames = (entry: PackageJsonDependencies) => [
  ...Object.keys(entry.dependencies ?? {}),
  ...Object.keys(entry.optionalDependencies ?? {}),
];

/**
 * The installed production packages a platform uses, by path under the root (nested ones included): from the
 * package's dependencies, less PLATFORM_ONLY ones of the other platform, each package and what it depends on, as
 * package-lock.json places them, skipping those whose `os` excludes the platform and those not installed here.
 */
export function productionPackages(root: string, platform: BundlePlatform): string[] {
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(root, 'package-lock.json'));
  const found = new Set<string>();
  // Node's lookup: node_modules/<name> beside the dependent, then in each folder above it.
  const place = (name: string, from: string): string | undefined => {
    for (let folder = from; ; folder = folder.slice(0, Math.max(0, folder.lastIndexOf('/node_modules/')))) {
      const path = `${folder === '' ? '' : `${folder}/`}node_modules/${name}`;
      if (lock.packages[path] !== undefined) return path;
      if (folder === '') return undefined;
    }
  };
  const visit = (path: string) => {
    if (found.has(path)) return;
    const placed = lock.packages[path];
    const entry = placed?.link === true && placed.resolved ? lock.packages[placed.resolved] : placed;
    if (!entry || entry.dev === true || (entry.os && !entry.os.includes(platform))) return;
    if (!existsSync(join(root, path))) return;
    found.add(path);
    for (const name of dependencyNames(entry)) {
      const dependency = place(name, path);
      if (dependency !== undefined) visit(dependency);
    }
  };
  const own = readJson<PackageJsonDependencies>(join(root, 'package.json'));
  for (const name of dependencyNames(own)) {
    const only = PLATFORM_ONLY[name];
    if (only === undefined || only === platform) visit(`node_modules/${name}`);
  }
  return [...found].sort();
}

function copyPackages(root: string, staging: string, packages: readonly string[]): void {
  for (const path of packages) {
    // Each nested node_modules is copied by its own entry: only production packages go in.
    cpSync(join(root, path), join(staging, path), {
      recursive: true,
      dereference: true,
      filter: (source) => source === join(root, path) || basename(source) !== 'node_modules',
    });
  }
}

/** sharp's native packages for another os-cpu pair, as npm installs them there, into staging/node_modules/@img. */
function addSharpPrebuilds(staging: string, pair: string): void {
  const [os, cpu] = pair.split('-');
  if (!os || !cpu) throw new Error(`--sharp-prebuilds: "${pair}" is not an os-cpu pair such as darwin-arm64`);
  const { version } = readJson<{ version: string }>(join(ROOT, 'node_modules', 'sharp', 'package.json'));
  const scratch = mkdtempSync(join(tmpdir(), 'macpilot-sharp-'));
  try {
    writeFileSync(join(scratch, 'package.json'), '{"private":true}\n');
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        `--os=${os}`,
        `--cpu=${cpu}`,
        `sharp@${version}`,
      ],
      { cwd: scratch, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const img = join(scratch, 'node_modules', '@img');
    const native = readdirSync(img).filter((name) => name.includes(`-${os}-${cpu}`));
    if (native.length === 0) throw new Error(`npm installed no sharp package for ${pair}`);
    for (const name of native) {
      cpSync(join(img, name), join(staging, 'node_modules', '@img', name), {
        recursive: true,
        dereference: true,
      });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function folderSize(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + folderSize(join(path, name)), 0);
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

export interface PackOptions {
  out: string;
  platform: BundlePlatform;
  /** os-cpu pairs of sharp's native packages to fetch; those of another os are left out. */
  sharpPrebuilds: readonly string[];
  staging?: string;
  /** Where a warning about the bundle goes (a bundle that will not work everywhere it installs). */
  warn?: (message: string) => void;
}

export function packMcpb(options: PackOptions): { out: string; bytes: number; unpackedBytes: number } {
  if (!existsSync(join(ROOT, 'dist', 'macpilot.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const { platform } = options;
  const staging = options.staging ?? mkdtempSync(join(tmpdir(), 'macpilot-mcpb-'));
  try {
    mkdirSync(staging, { recursive: true });
    for (const name of shippedFiles(ROOT, platform)) {
      if (!existsSync(join(ROOT, name))) continue;
      cpSync(join(ROOT, name), join(staging, name), {
        recursive: true,
        filter: (source) => (PLATFORM_FILES[basename(source)] ?? platform) === platform,
      });
    }
    copyPackages(ROOT, staging, productionPackages(ROOT, platform));
    const prebuilds = options.sharpPrebuilds.filter((pair) => pair.startsWith(`${platform}-`));
    if (platform !== process.platform && prebuilds.length === 0) {
      options.warn?.(
        `the ${platform} bundle has no native sharp package (none installed here, none fetched): it takes no ` +
          `screenshots until one is added; leave --sharp-prebuilds at its default for a bundle to ship`,
      );
    }
    for (const pair of prebuilds) {
      addSharpPrebuilds(staging, pair);
    }
    const manifest = mcpbManifest(readJson<PackageJson>(join(ROOT, 'package.json')), platform);
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const unpackedBytes = folderSize(staging);
    const out = resolve(options.out);
    rmSync(out, { force: true });
    execFileSync(join(ROOT, 'node_modules', '.bin', 'mcpb'), ['pack', staging, out], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return { out, bytes: statSync(out).size, unpackedBytes };
  } finally {
    if (options.staging === undefined) rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      platform: { type: 'string' },
      'out-dir': { type: 'string', default: ROOT },
      'sharp-prebuilds': { type: 'string', default: 'darwin-arm64,darwin-x64' },
      staging: { type: 'string' },
    },
  });
  const platforms = values.platform === undefined ? BUNDLE_PLATFORMS : [values.platform];
  const unknown = platforms.find((name) => !(BUNDLE_PLATFORMS as readonly string[]).includes(name));
  if (unknown !== undefined)
    throw new Error(`--platform: "${unknown}" is not one of ${BUNDLE_PLATFORMS.join(', ')}`);
  if (values.staging !== undefined && platforms.length > 1) throw new Error('--staging needs one --platform');
  const prebuilds = values['sharp-prebuilds'] === 'none' ? [] : values['sharp-prebuilds'].split(',');
  if (!existsSync(join(ROOT, 'release-checksums.json'))) {
    process.stdout.write(
      'note: no release-checksums.json (scripts/release-macos-helper.sh writes it): on a Mac without the helper ' +
        'app installed, the macOS bundle cannot verify a downloaded one and needs MACPILOT_HELPER_PATH\n',
    );
  }
  for (const platform of platforms as BundlePlatform[]) {
    const started = performance.now();
    const { out, bytes, unpackedBytes } = packMcpb({
      out: join(values['out-dir'], `macpilot-${platform}.mcpb`),
      platform,
      sharpPrebuilds: prebuilds,
      staging: values.staging,
      warn: (message) => process.stderr.write(`warning: ${message}\n`),
    });
    process.stdout.write(
      `${out}: ${megabytes(bytes)} (${megabytes(unpackedBytes)} unpacked), made in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
}
