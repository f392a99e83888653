/**
 * A damaged English model is refused with an error, not handed to tesseract.js, whose worker takes the whole
 * server down when it fails to initialise (an uncaught exception in its message listener).
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { MacpilotError } from '../../../../../src/errors.js';
import { ocrModel, wholeModel } from '../../../../../src/platforms/linux/ocr/model.js';
import { TesseractRecognizer } from '../../../../../src/platforms/linux/ocr/tesseract.js';
import { temporaryFolder } from '../../../../support/temp.js';

const white = () =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: 'white' } })
    .png()
    .toBuffer();

it('refuses a model file that is not a model, and stays usable for the next call', async () => {
  const folder = temporaryFolder('macpilot-model-');
  writeFileSync(join(folder, 'eng.traineddata'), 'not a model\n');
  const recognizer = new TesseractRecognizer({ langPath: folder, gzip: false, source: 'debian' });
  const failure = await recognizer.recognize(await white()).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(MacpilotError);
  expect((failure as MacpilotError).why).toContain('is damaged');
  await recognizer.close();
});

it('tells a whole model from one cut short or not gzipped as said', async () => {
  const folder = temporaryFolder('macpilot-model-');
  const { langPath, gzip } = ocrModel();
  const name = `eng.traineddata${gzip ? '.gz' : ''}`;
  const model = join(langPath, name);
  expect(await wholeModel(model, gzip)).toBe(true);
  const whole = join(folder, name);
  copyFileSync(model, whole);
  expect(await wholeModel(whole, !gzip)).toBe(false);
  const data = readFileSync(model);
  const plain = gzip ? gunzipSync(data) : data;
  const cut = join(folder, 'cut.traineddata');
  writeFileSync(cut, plain.subarray(0, plain.length / 2));
  expect(await wholeModel(cut, false)).toBe(false);
  const cutZipped = join(folder, 'cut.traineddata.gz');
  writeFileSync(cutZipped, gzipSync(plain.subarray(0, 1000)));
  expect(await wholeModel(cutZipped, true)).toBe(false);
});
