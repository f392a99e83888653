/**
 * The scenarios both platforms are held to (test/scenarios/*.ts), and what differs between the apps they run on:
 * each platform's desk names its apps and does, as a person would there, the few steps its apps do differently
 * (a new plain-text document, a Save panel). Linux: mousepad and gnome-calculator on the test desktop
 * (test/e2e/scenarios.test.ts); macOS: TextEdit and Calculator, which every Mac has (test/macos/scenarios.test.ts).
 */
import type { Macpilot } from '../support/mcp.js';

export interface EditorAdapter {
  /** What launch_app is given. */
  launch: string;
  /** Leaves the editor showing an empty plain-text document. */
  newDocument(macpilot: Macpilot, app: string): Promise<void>;
  /** Saves the document as `file` (an absolute path ending in .txt) through the app's Save panel. */
  saveAs(macpilot: Macpilot, app: string, file: string): Promise<void>;
}

export interface CalculatorAdapter {
  launch: string;
  launchTimeoutMs: number;
  /** The names its buttons may have, for the keys the scenario presses. */
  buttons: Record<'7' | '×' | '6' | '=', readonly string[]>;
}

export interface Desk {
  platform: 'linux' | 'darwin';
  /** The modifier of the usual shortcuts: Ctrl on Linux, Command on a Mac. */
  primary: 'ctrl' | 'cmd';
  editor: EditorAdapter;
  calculator: CalculatorAdapter;
}
