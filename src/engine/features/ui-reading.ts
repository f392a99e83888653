/**
 * An app's UI patterns and state, read from its walked tree; for an app whose tree is empty below its root (no
 * accessibility, a canvas), from the text OCR reads in its window. OCR costs 200-300 ms warm and seconds cold,
 * so it runs only then; when it fails, the reading says so and shows no patterns, and the read goes on.
 */
import type { CallOptions } from '../../helper-client/errors.js';
import type { UiReading } from '../kernel/results.js';
import { isBlankApp, readUi } from '../reading/patterns.js';
import type { AppRef } from '../kernel/refs.js';
import { type ScreenText, TEXT_DEFAULTS } from './screen-text.js';
import type { Walked } from '../kernel/tree.js';

export class UiReader {
  constructor(private readonly text: ScreenText) {}

  /** The reading of `tree`, walked from `app`'s root or from an element of it. */
  async read(tree: Walked, app: AppRef, call?: CallOptions): Promise<UiReading> {
    if (!isBlankApp(tree)) return readUi(tree);
    try {
      // By pid: the name may match several apps, and the capture must not ask which again.
      const { lines } = await this.text.read({ app: String(app.pid) }, TEXT_DEFAULTS.minConfidence, call);
      return readUi(tree, { screenText: lines });
    } catch (error) {
      if (call?.signal?.aborted) throw error;
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      return {
        patterns: [],
        state: 'idle',
        because: `the app shows no accessibility tree and the text in its window could not be read (${why})`,
      };
    }
  }
}
