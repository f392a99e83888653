/** Which English model OCR uses: Debian's tessdata_fast when installed, else the npm package's, never a download. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ocrModel } from '../../../../../src/platforms/linux/ocr/tesseract.js';

it("falls back to @tesseract.js-data/eng's best_int model, gzipped, from node_modules", () => {
  const model = ocrModel('/nonexistent/tessdata');
  expect(model.gzip).toBe(true);
  expect(model.langPath).toMatch(/@tesseract\.js-data[/\\]eng[/\\]4\.0\.0_best_int$/);
  expect(existsSync(join(model.langPath, 'eng.traineddata.gz'))).toBe(true);
});

// tesseract-ocr-eng is one of the test packages (scripts/debian-packages.txt).
it("prefers Debian's model, uncompressed, where tesseract-ocr-eng puts it", () => {
  expect(ocrModel()).toEqual({ langPath: '/usr/share/tesseract-ocr/5/tessdata', gzip: false });
});
