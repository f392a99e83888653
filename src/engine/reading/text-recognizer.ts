/**
 * What reads text in screen images (OCR): a port, like HelperPort. On macOS the helper does, with Vision
 * (`screen.recognizeText`); on Linux the server does, with tesseract.js (src/platforms/linux/ocr), handed to
 * createEngine by the entry point. Boxes are in the image's pixels; the engine maps them to screen points.
 */
import type { CallOptions } from '../../helper-client/errors.js';
import type { RecognizedLine } from '../../helper-client/protocol.js';
import type { HelperPort } from '../kernel/port.js';

export interface TextRecognizer {
  /** The lines of text in a PNG image, with their words; boxes in image pixels, origin at the top left. */
  recognize(png: Buffer, call?: CallOptions): Promise<RecognizedLine[]>;
  /** Frees what it keeps warm (workers, models); the next recognize starts again. */
  close(): Promise<void>;
}

/** Text recognition by the helper (macOS: Vision, accurate mode, language correction). */
export function helperRecognizer(port: HelperPort): TextRecognizer {
  return {
    recognize: async (png, call) =>
      (await port.call('screen.recognizeText', { data: png.toString('base64') }, call)).lines,
    close: async () => {},
  };
}
