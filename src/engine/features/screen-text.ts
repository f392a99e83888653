/**
 * The text on screen, read by OCR where the accessibility tree has none (canvases, images of text, remote
 * desktops, badly built apps): read_text's lines with their boxes in screen points, find_text's one match, and
 * click_text, a click at the centre of the matched words that answers what changed like every click.
 */
import type { CallOptions } from '../../helper-client/errors.js';
import type { MouseButton } from '../../helper-client/protocol.js';
import type { Input } from './input.js';
import type { Kernel } from '../kernel/kernel.js';
import type { ActionResult, TextMatchResult, TextResult } from '../kernel/results.js';
import type { ScreenLine } from '../kernel/screen-lines.js';
import type { CaptureArea, Screen } from './screen.js';
import { findInLines, pickMatch, type TextMatchMode, toScreenLines } from '../reading/text-match.js';
import type { TextRecognizer } from '../reading/text-recognizer.js';
import { appText, words } from '../kernel/words.js';

export const TEXT_DEFAULTS = {
  /** Lines read with less confidence (0-1) are left out unless min_confidence says otherwise. */
  minConfidence: 0.5,
  /** A found text must be read with at least this confidence. */
  matchConfidence: 0.3,
} as const;

export interface TextLookup {
  text: string;
  app?: string;
  match?: TextMatchMode;
  /** 1-based, in reading order; required when the text appears more than once. */
  occurrence?: number;
}

export class ScreenText {
  constructor(
    private readonly kernel: Kernel,
    private readonly screen: Screen,
    private readonly input: Input,
    private readonly recognizer: TextRecognizer,
  ) {}

  async read(area: CaptureArea, minConfidence: number, call?: CallOptions): Promise<TextResult> {
    return this.kernel.guard('read the text on screen', async () => {
      const { what, bounds, lines } = await this.lines(area, call);
      const kept = lines.filter((line) => line.confidence >= minConfidence);
      return {
        kind: 'text',
        what,
        area: bounds,
        lines: kept,
        minConfidence,
        dropped: lines.length - kept.length,
      };
    });
  }

  async find(lookup: TextLookup, call?: CallOptions): Promise<TextMatchResult> {
    return this.kernel.guard(`find the text ${JSON.stringify(lookup.text)}`, async () => {
      const { what, match } = await this.locate(lookup, call);
      return { kind: 'text-match', query: lookup.text, what, match };
    });
  }

  async click(
    lookup: TextLookup,
    options: { button?: MouseButton; count?: number },
    call?: CallOptions,
  ): Promise<ActionResult> {
    const { match } = await this.kernel.guard(`find the text ${JSON.stringify(lookup.text)}`, () =>
      this.locate(lookup, call),
    );
    const label = words`the text ${appText(JSON.stringify(match.text))}`;
    return this.input.click({ ...match.centre, label }, options, call);
  }

  private async locate(lookup: TextLookup, call?: CallOptions) {
    const { what, lines } = await this.lines({ app: lookup.app }, call);
    const readable = lines.filter((line) => line.confidence >= TEXT_DEFAULTS.matchConfidence);
    const matches = findInLines(readable, lookup.text, lookup.match ?? 'words');
    const match = pickMatch(matches, { ...lookup, what, lines: readable });
    return { what, match };
  }

  /** The area captured at full resolution and read, lines in screen points. */
  private async lines(area: CaptureArea, call?: CallOptions) {
    const capture = await this.screen.capture(area, call);
    const lines: ScreenLine[] = toScreenLines(await this.recognizer.recognize(capture.png, call), capture);
    return { what: capture.what, bounds: capture.bounds, lines };
  }
}
