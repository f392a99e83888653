/**
 * The clipboard as an agent reads it: its text (it may hold anything anyone copied), or the types it offers when
 * it holds no text. Written text is never echoed: it may be a password.
 */
import type { ClipboardHistory } from './clipboard-history.js';
import type { Kernel } from '../kernel/kernel.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { ActionResult, ClipboardResult } from '../kernel/results.js';
import { plural } from '../../text.js';
import { own } from '../kernel/words.js';
import { clipboardReadRefusal } from '../kernel/hidden-copy.js';

export const CLIPBOARD_DEFAULTS = { maxChars: 20_000 } as const;

export class Clipboard {
  constructor(
    private readonly kernel: Kernel,
    readonly history: ClipboardHistory,
  ) {}

  async get(maxChars: number = CLIPBOARD_DEFAULTS.maxChars, call?: CallOptions): Promise<ClipboardResult> {
    return this.kernel.guard('read the clipboard', async () => {
      const { text, types } = await this.kernel.port.call('clipboard.read', {}, call);
      if (text === undefined) return { kind: 'clipboard', chars: 0, maxChars, types };
      const hiddenBy = await this.history.fromHiddenApp(text);
      if (hiddenBy) throw clipboardReadRefusal(hiddenBy);
      const chars = Array.from(text);
      const shown = chars.length > maxChars ? chars.slice(0, maxChars).join('') : text;
      return { kind: 'clipboard', text: shown, chars: chars.length, maxChars, types };
    });
  }

  async set(text: string, call?: CallOptions): Promise<ActionResult> {
    return this.kernel.guard('write the clipboard', async () => {
      this.history.settingOwn(text);
      await this.kernel.port.call('clipboard.write', { text }, call);
      this.history.add(text);
      const done = own(
        `Copied ${plural(Array.from(text).length, 'character')} to the clipboard; other apps can paste it now.`,
      );
      return { kind: 'action', done };
    });
  }

  async clear(call?: CallOptions): Promise<ActionResult> {
    return this.kernel.guard('clear the clipboard', async () => {
      await this.kernel.port.call('clipboard.clear', {}, call);
      // Only the server's own history is forgotten; said when it held something (a command at a terminal has none).
      const held = this.history.size;
      const forgot =
        held > 0 ? `, and macpilot forgot the ${plural(held, 'text')} of its clipboard history` : '';
      this.history.clear();
      return { kind: 'action', done: own(`Cleared the clipboard: it is empty now${forgot}.`) };
    });
  }
}
