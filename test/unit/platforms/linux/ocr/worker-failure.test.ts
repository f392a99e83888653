/** A job a tesseract.js worker fails is a rejected promise, not an uncaught exception that ends the server. */
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { loadEngine, ocrModel } from '../../../../../src/platforms/linux/ocr/model.js';
import { startWorker } from '../../../../../src/platforms/linux/ocr/tesseract.js';

it('rejects an image the worker cannot read, and the worker reads on', async () => {
  // The engine as npm installs it: macpilot-linux-ocr's bundle of tesseract.js, its worker and one core build.
  const { createWorker, workerPath } = await loadEngine();
  const { langPath, gzip } = ocrModel();
  const worker = await startWorker(createWorker, { langPath, gzip, cacheMethod: 'none', workerPath });
  try {
    await expect(worker.recognize(Buffer.from('not an image'))).rejects.toThrow(/read image/);
    const blank = await sharp({ create: { width: 40, height: 20, channels: 3, background: 'white' } })
      .png()
      .toBuffer();
    expect((await worker.recognize(blank)).data.text.trim()).toBe('');
  } finally {
    await worker.terminate();
  }
});
