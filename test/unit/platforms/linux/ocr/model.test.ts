/**
 * Which English model OCR uses: Debian's tessdata_fast when installed, else the npm package's, fetched once into
 * the user's cache folder and pinned to the byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { modelCache, NPM_MODEL, ocrModel, tarballUrl } from '../../../../../src/platforms/linux/ocr/model.js';

it("falls back to @tesseract.js-data/eng's best_int model, gzipped, in the cache folder", () => {
  expect(ocrModel('/nonexistent/tessdata', '/cache/eng')).toEqual({
    langPath: '/cache/eng',
    gzip: true,
    source: 'npm',
  });
});

// tesseract-ocr-eng is one of the test packages (scripts/debian-packages.txt).
it("prefers Debian's model, uncompressed, where tesseract-ocr-eng puts it", () => {
  expect(ocrModel()).toEqual({
    langPath: '/usr/share/tesseract-ocr/5/tessdata',
    gzip: false,
    source: 'debian',
  });
});

it('keeps the fetched model under $XDG_CACHE_HOME, else ~/.cache, by package version', () => {
  expect(modelCache({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/a' })).toBe(
    '/x/cache/macpilot/ocr/tesseract.js-data-eng-1.0.0',
  );
  expect(modelCache({ HOME: '/home/a' })).toBe('/home/a/.cache/macpilot/ocr/tesseract.js-data-eng-1.0.0');
});

it('pins the model package the lockfile pins (the tests read the same bytes users fetch)', () => {
  const lock = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../../../package-lock.json'), 'utf8'),
  ) as {
    packages: Record<string, { version: string; integrity: string }>;
  };
  const locked = lock.packages['node_modules/@tesseract.js-data/eng'];
  expect(`@tesseract.js-data/eng@${locked?.version}`).toBe(NPM_MODEL.spec);
  expect(locked?.integrity).toBe(NPM_MODEL.integrity);
});

it("finds the tarball where a registry keeps it, npm's own unless npm_config_registry says otherwise", () => {
  expect(tarballUrl({})).toBe('https://registry.npmjs.org/@tesseract.js-data/eng/-/eng-1.0.0.tgz');
  expect(tarballUrl({ npm_config_registry: 'http://127.0.0.1:4873' })).toBe(
    'http://127.0.0.1:4873/@tesseract.js-data/eng/-/eng-1.0.0.tgz',
  );
});
