/**
 * Text read off the screen by OCR, in screen points: what read_text answers, what find_text and click_text look
 * in, and what stands in for an app's tree when the tree is empty (patterns.ts).
 */
import type { Bounds } from '../../helper-client/protocol.js';

/** A word read from the screen by OCR: its box in screen points and a confidence from 0 to 1. */
export interface ScreenWord {
  text: string;
  bounds: Bounds;
  confidence: number;
}

/** A line of text read from the screen: its words left to right, and the box around them (screen points). */
export interface ScreenLine extends ScreenWord {
  words: ScreenWord[];
}
