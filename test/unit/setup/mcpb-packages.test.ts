/**
 * What each platform's MCP Bundle carries: the packages npm would install there, as package-lock.json places
 * them: what dist/ loads at run time, the rest being bundled into it. macOS gets no OCR engine (Vision reads text
 * there), no D-Bus client and nothing only it needs, and no Linux build of sharp; Linux gets all of those.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PLATFORM_ONLY, productionPackages, shippedFiles } from '../../../scripts/mcpb/pack.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const darwin = productionPackages(ROOT, 'darwin');
const linux = productionPackages(ROOT, 'linux');

describe('the packages of each bundle', () => {
  test('macOS: sharp alone (the rest is bundled into dist/), without the OCR engine, D-Bus or a Linux sharp build', () => {
    expect(darwin).toContain('node_modules/sharp');
    for (const absent of [
      'node_modules/macpilot-linux-ocr',
      'node_modules/dbus-next',
      // Bundled into dist/: not loaded from node_modules.
      'node_modules/@modelcontextprotocol/sdk',
      'node_modules/zod',
      'node_modules/x11',
      // dbus-next's optional native socket and what it pulls in are Linux's alone.
      'node_modules/usocket',
      'node_modules/xml2js',
      'node_modules/@img/sharp-linux-x64',
      'node_modules/@img/sharp-libvips-linux-x64',
      'node_modules/tesseract.js',
      'node_modules/tesseract.js-core',
    ]) {
      expect(darwin).not.toContain(absent);
    }
  });

  test('Linux: the same plus the OCR engine, D-Bus and the sharp build installed here; no test tools', () => {
    expect(linux).toEqual(expect.arrayContaining([...darwin, 'node_modules/macpilot-linux-ocr']));
    expect(linux).toEqual(
      expect.arrayContaining(Object.keys(PLATFORM_ONLY).map((name) => `node_modules/${name}`)),
    );
    expect(linux).toContain(`node_modules/@img/sharp-linux-${process.arch}`);
    // tesseract.js and its 44 MB of cores are bundled into macpilot-linux-ocr, not shipped as they come.
    for (const absent of [
      'node_modules/tesseract.js',
      'node_modules/tesseract.js-core',
      'node_modules/vitest',
    ]) {
      expect(linux).not.toContain(absent);
    }
  });

  test("the files: the npm package's, the console's page among them, less npm's install hook and the other platform's", () => {
    const files = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(files.files).toContain('console');
    const mac = shippedFiles(ROOT, 'darwin');
    const pc = shippedFiles(ROOT, 'linux');
    for (const shipped of [mac, pc]) {
      expect(shipped).toEqual(
        expect.arrayContaining(['dist', 'console', 'docs', 'README.md', 'package.json']),
      );
      expect(shipped).not.toContain('scripts/postinstall.mjs');
    }
    expect(mac).toContain('release-checksums.json');
    expect(mac).not.toContain('gnome-extension');
    expect(pc).toContain('gnome-extension');
    expect(pc).not.toContain('release-checksums.json');
  });
});
