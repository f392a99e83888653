/**
 * Without Debian's model, the first read fetches @tesseract.js-data/eng from the npm registry (real `npm pack`,
 * npm's cache allowed) into the cache folder, checked against the pinned integrity, and reads with it; a damaged
 * copy there is fetched again; a cancelled fetch leaves nothing behind.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, expect, it } from 'vitest';
import { HelperError } from '../../../../../src/helper-client/errors.js';
import { MacpilotError } from '../../../../../src/errors.js';
import { fetchModel, modelFile, ocrModel, wholeModel } from '../../../../../src/platforms/linux/ocr/model.js';
import { TesseractRecognizer } from '../../../../../src/platforms/linux/ocr/tesseract.js';
import { temporaryFolder } from '../../../../support/temp.js';

const model = ocrModel('/nonexistent/tessdata', temporaryFolder('macpilot-ocr-cache-'));
const recognizer = new TesseractRecognizer(model);
afterAll(() => recognizer.close());

const picture = (text: string) =>
  sharp({ create: { width: 480, height: 80, channels: 3, background: 'white' } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="480" height="80"><text x="10" y="50" font-size="32">${text}</text></svg>`,
        ),
      },
    ])
    .png()
    .toBuffer();
const words = async (png: Buffer) =>
  (await recognizer.recognize(png)).map((line) => line.words.map((word) => word.text).join(' '));

it('fetches the model on the first read, reads with it, and leaves only the model in the cache', async () => {
  expect(existsSync(modelFile(model))).toBe(false);
  expect(await words(await picture('Fetched model 815'))).toEqual(['Fetched model 815']);
  expect(await wholeModel(modelFile(model), true)).toBe(true);
  expect(readdirSync(model.langPath)).toEqual(['eng.traineddata.gz']);
}, 180_000);

it('fetches a damaged copy again', async () => {
  await recognizer.close();
  writeFileSync(modelFile(model), 'cut short');
  expect(await words(await picture('Again 42'))).toEqual(['Again 42']);
  expect(await wholeModel(modelFile(model), true)).toBe(true);
}, 180_000);

it('stops a cancelled fetch and keeps nothing of it', async () => {
  const other = ocrModel('/nonexistent/tessdata', temporaryFolder('macpilot-ocr-cache-'));
  const stop = new AbortController();
  const fetching = fetchModel(other, stop.signal).catch((error: unknown) => error);
  setTimeout(() => stop.abort(), 50);
  const failure = await fetching;
  expect(failure instanceof MacpilotError || failure instanceof HelperError, String(failure)).toBe(true);
  expect(String((failure as MacpilotError).what)).toContain('cancelled');
  expect(readdirSync(other.langPath)).toEqual([]);
}, 60_000);

it('without npm on the PATH, fetches the same bytes straight from the registry', async () => {
  const other = ocrModel('/nonexistent/tessdata', temporaryFolder('macpilot-ocr-cache-'));
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    await fetchModel(other);
  } finally {
    process.env.PATH = path;
  }
  expect(await wholeModel(modelFile(other), true)).toBe(true);
  expect(readdirSync(other.langPath)).toEqual(['eng.traineddata.gz']);
}, 180_000);
