/**
 * A cancelled read_text does not run OCR when its turn comes (tesseract.js reads one image at a time), and one
 * cancelled while it reads stops between its phases.
 */
import sharp from 'sharp';
import { expect, it, vi } from 'vitest';
import { ClientErrorCode, HelperError } from '../../../../../src/helper-client/errors.js';
import { TesseractRecognizer } from '../../../../../src/platforms/linux/ocr/tesseract.js';

it('answers a call cancelled before its turn as cancelled, without starting the workers', async () => {
  // No model there: starting the workers would fail with "OCR is unavailable" instead.
  const recognizer = new TesseractRecognizer({
    langPath: '/nonexistent/tessdata',
    gzip: false,
    source: 'debian',
  });
  const failure = await recognizer
    .recognize(Buffer.from([0x89, 0x50, 0x4e, 0x47]), { signal: AbortSignal.abort() })
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(HelperError);
  expect((failure as HelperError).code).toBe(ClientErrorCode.Cancelled);
  await recognizer.close();
});

it('stops a read cancelled while it runs after its first phase, and keeps the workers for the next one', async () => {
  const recognizer = new TesseractRecognizer();
  const close = vi.spyOn(recognizer, 'close');
  const text = '<svg width="480" height="80"><text x="10" y="50" font-size="32">Cancel me 42</text></svg>';
  const png = await sharp({ create: { width: 480, height: 80, channels: 3, background: 'white' } })
    .composite([{ input: Buffer.from(text) }])
    .png()
    .toBuffer();
  try {
    const stop = new AbortController();
    const reading = recognizer.recognize(png, { signal: stop.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve)); // past the check before its turn
    stop.abort();
    const failure = await reading;
    expect(failure).toBeInstanceOf(HelperError);
    expect((failure as HelperError).code).toBe(ClientErrorCode.Cancelled);
    expect(close).not.toHaveBeenCalled();
    const lines = await recognizer.recognize(png);
    expect(lines.map((line) => line.words.map((w) => w.text).join(' ')).join('\n')).toContain('42');
  } finally {
    await recognizer.close();
  }
});
