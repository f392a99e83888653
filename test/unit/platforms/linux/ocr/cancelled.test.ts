/** A cancelled read_text does not run OCR when its turn comes (tesseract.js reads one image at a time). */
import { expect, it } from 'vitest';
import { ClientErrorCode, HelperError } from '../../../../../src/helper-client/errors.js';
import { TesseractRecognizer } from '../../../../../src/platforms/linux/ocr/tesseract.js';

it('answers a call cancelled before its turn as cancelled, without starting the workers', async () => {
  // No model there: starting the workers would fail with "OCR is unavailable" instead.
  const recognizer = new TesseractRecognizer({ langPath: '/nonexistent/tessdata', gzip: false });
  const failure = await recognizer
    .recognize(Buffer.from([0x89, 0x50, 0x4e, 0x47]), { signal: AbortSignal.abort() })
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(HelperError);
  expect((failure as HelperError).code).toBe(ClientErrorCode.Cancelled);
  await recognizer.close();
});
