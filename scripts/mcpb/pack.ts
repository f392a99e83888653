/**
 * `npm run pack:mcpb`: builds macpilot.mcpb, the MCP Bundle Claude Desktop installs. It holds what the npm
 * package holds (dist/, package.json, the release checksums) plus the production dependencies, copied from this
 * checkout's node_modules as package-lock.json lists them, and sharp's native prebuilds for macOS, fetched from
 * the npm registry (a bundle declares platforms, not CPUs: both Mac architectures go in). The server starts as
 * `npx macpilot serve` does; on macOS it installs its helper app at first start, as after `npm install`.
 *
 * Options: --out FILE (default macpilot.mcpb); --sharp-prebuilds LIST of os-cpu pairs to add
 * (default darwin-arm64,darwin-x64; "none" to add nothing and work offline, as the tests do);
 * --staging DIR to keep the unpacked tree there instead of a temporary folder.
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
/** What the npm package ships besides docs (package.json "files"), when present. */
const SHIPPED = ['dist', 'gnome-extension', 'package.json', 'README.md', 'LICENSE', 'release-checksums.json'];

interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** The installed production packages, by path under the root (nested ones included), from package-lock.json. */
export function productionPackages(root: string): string[] {
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(root, 'package-lock.json'));
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev !== true)
    .map(([path]) => path)
    .filter((path) => existsSync(join(root, path)));
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
  sharpPrebuilds: readonly string[];
  staging?: string;
}

export function packMcpb(options: PackOptions): { out: string; bytes: number; unpackedBytes: number } {
  if (!existsSync(join(ROOT, 'dist', 'macpilot.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const staging = options.staging ?? mkdtempSync(join(tmpdir(), 'macpilot-mcpb-'));
  try {
    mkdirSync(staging, { recursive: true });
    for (const name of SHIPPED) {
      if (existsSync(join(ROOT, name))) cpSync(join(ROOT, name), join(staging, name), { recursive: true });
    }
    copyPackages(ROOT, staging, productionPackages(ROOT));
    for (const pair of options.sharpPrebuilds) addSharpPrebuilds(staging, pair);
    const manifest = mcpbManifest(readJson<PackageJson>(join(ROOT, 'package.json')));
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
      out: { type: 'string', default: join(ROOT, 'macpilot.mcpb') },
      'sharp-prebuilds': { type: 'string', default: 'darwin-arm64,darwin-x64' },
      staging: { type: 'string' },
    },
  });
  const started = performance.now();
  const prebuilds = values['sharp-prebuilds'] === 'none' ? [] : values['sharp-prebuilds'].split(',');
  const { out, bytes, unpackedBytes } = packMcpb({
    out: values.out,
    sharpPrebuilds: prebuilds,
    staging: values.staging,
  });
  if (!existsSync(join(ROOT, 'release-checksums.json'))) {
    process.stdout.write(
      'note: no release-checksums.json (scripts/release-macos-helper.sh writes it): on a Mac without the helper ' +
        'app installed, this bundle cannot verify a downloaded one and needs MACPILOT_HELPER_PATH\n',
    );
  }
  process.stdout.write(
    `${out}: ${megabytes(bytes)} (${megabytes(unpackedBytes)} unpacked), made in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}
