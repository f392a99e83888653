/**
 * The release's dry run, as far as Linux takes it (scripts/release.ts): the versions checked, the npm tarballs and
 * one MCP Bundle per platform made, their manifests valid, SHA256SUMS true to the files; the upload and the
 * publish printed, not run; the checkout left as it was. The macOS helper's files are a Mac's to make: noted.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { release } from '../../../scripts/release.js';
import { temporaryFolder } from '../../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const entries = (bundle: string) =>
  execFileSync('unzip', ['-Z1', bundle], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n');

test('a dry run packs, bundles and sums everything, prints the upload and the publish, and changes nothing', () => {
  expect(existsSync(join(ROOT, 'dist', 'macpilot.js')), 'dist/ is missing: run `npm run build`').toBe(true);
  const before = ['package.json', 'package-lock.json'].map((name) => readFileSync(join(ROOT, name), 'utf8'));
  const out = temporaryFolder('macpilot-release-');
  const lines: string[] = [];
  const { files } = release({ dryRun: true, out, sharpPrebuilds: [], say: (line) => lines.push(line) });

  expect(files).toEqual([
    `macpilot-linux-ocr-${VERSION}.tgz`,
    `macpilot-${VERSION}.tgz`,
    'macpilot-darwin.mcpb',
    'macpilot-linux.mcpb',
    'SHA256SUMS',
  ]);
  const sums = readFileSync(join(out, 'SHA256SUMS'), 'utf8').trim().split('\n');
  expect(sums).toHaveLength(4);
  for (const line of sums) {
    const [sum, name] = line.split('  ');
    expect(
      createHash('sha256')
        .update(readFileSync(join(out, name ?? '')))
        .digest('hex'),
    ).toBe(sum);
  }
  // Each bundle carries its platform's part only.
  const darwin = entries(join(out, 'macpilot-darwin.mcpb'));
  const linux = entries(join(out, 'macpilot-linux.mcpb'));
  for (const bundle of [darwin, linux]) {
    // The console's page, which `macpilot console` and `serve --http` serve from beside dist/.
    expect(bundle).toEqual(
      expect.arrayContaining(['dist/macpilot.js', 'console/index.html', 'console/console.js']),
    );
    expect(bundle).not.toContain('scripts/postinstall.mjs');
  }
  expect(darwin.some((entry) => entry.includes('macpilot-linux-ocr') || entry.includes('dbus-next'))).toBe(
    false,
  );
  expect(darwin).not.toContain('dist/macpilot-linux-helper.js');
  expect(linux).toContain('node_modules/macpilot-linux-ocr/tesseract-core-simd-lstm.wasm');
  expect(linux).toContain('dist/macpilot-linux-helper.js');

  expect(lines).toContain(
    `skipped: the macOS helper's release files for ${VERSION} (scripts/release-macos-helper.sh makes them, on a Mac)`,
  );
  expect(lines).toContain(
    `would run: npm publish ${join(out, `macpilot-linux-ocr-${VERSION}.tgz`)} --provenance --access public`,
  );
  expect(lines).toContain(
    `would run: npm publish ${join(out, `macpilot-${VERSION}.tgz`)} --provenance --access public`,
  );
  expect(lines.find((line) => line.startsWith('would run: gh release create'))).toContain('--draft');
  // Offline, the macOS bundle lacks sharp's Mac builds, and the run says so.
  expect(
    lines.some((line) => line.startsWith('warning: the darwin bundle has no native sharp package')),
  ).toBe(true);
  expect(lines.at(-1)).toBe(`dry run done: ${out} (nothing uploaded or published)`);
  expect(['package.json', 'package-lock.json'].map((name) => readFileSync(join(ROOT, name), 'utf8'))).toEqual(
    before,
  );
}, 180_000);
