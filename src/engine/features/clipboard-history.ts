/**
 * The texts the clipboard held while this server ran, newest first: in memory only (never logged or written
 * anywhere), at most HISTORY_LIMIT of them, each cut at ENTRY_CHARS characters. Fed by the change feed (each
 * clipboard change is read back) and by set_clipboard; a text equal to the newest one is not added again.
 *
 * Watching starts when the helper first starts (the first call that needs the desktop, whichever it is) or at the
 * first history call, not when the server starts: a server that is only listed or checked never spawns the helper.
 */
import { createHash } from 'node:crypto';
import { HiddenCopy } from '../kernel/hidden-copy.js';
import type { AppRefused } from '../kernel/resolve.js';
import type { ChangeFeed } from '../kernel/feed.js';
import type { HelperPort } from '../kernel/port.js';
import {
  type ClipboardEntry,
  type ClipboardHistoryResult,
  HISTORY_LIMIT,
  ENTRY_CHARS,
} from '../kernel/results.js';

export class ClipboardHistory {
  private entries: ClipboardEntry[] = [];
  /** A digest of the newest text in full, so that a long text cut the same way is still told apart. */
  private newestDigest: string | undefined;
  /** Raised by clear: a read begun before it answers with what was cleared, and is dropped. */
  private generation = 0;
  /** Reads of the clipboard after its changes, one at a time so that they land in order. */
  private reads: Promise<void> = Promise.resolve();
  private watching: Promise<boolean> | undefined;
  /**
   * A text copied in an app the person's lists hide, never added, never read back to an agent: its digest, and
   * the lists' refusal of that app (which names it to the person).
   */
  private hidden: { digest: string; by: AppRefused } | undefined;
  /** Texts copied in apps the lists hide since the history was last cleared: left out, and counted. */
  private hiddenLeftOut = 0;
  /** A digest of the text macpilot is putting on the clipboard: its own, whatever app is in front. */
  private ownDigest: string | undefined;

  constructor(
    private readonly port: HelperPort,
    private readonly feed: ChangeFeed,
    readonly enabled: boolean,
    private readonly offBy?: string,
    private readonly now: () => number = Date.now,
    /** The lists' refusal of the app that copied what the clipboard holds, when they hide it. */
    private readonly copiedInHiddenApp: () => Promise<AppRefused | undefined> = () =>
      Promise.resolve(undefined),
    /** Told whether the clipboard holds such a copy, which no action may paste either. */
    private readonly hiddenCopy = new HiddenCopy(),
  ) {
    if (enabled) port.onReady?.(() => void this.watch());
    hiddenCopy.settle = async () => {
      await this.watch();
      await this.reads;
    };
  }

  /**
   * Starts watching (once), and judges what the clipboard holds then (a password copied a moment before is not
   * pasted either); false when this helper cannot tell when the clipboard changes.
   */
  watch(): Promise<boolean> {
    if (!this.enabled) return Promise.resolve(false);
    this.watching ??= this.feed
      .onClipboard(() => this.changed())
      .then(({ live }) => {
        this.changed(false);
        return live;
      });
    return this.watching;
  }

  /** Said before macpilot puts `text` on the clipboard: the change it makes is macpilot's, not a hidden app's. */
  settingOwn(text: string): void {
    this.ownDigest = digestOf(text);
    this.heldHidden(undefined);
  }

  /**
   * Whether `text` is what an app the person's lists hide copied (the lists' refusal of it): as heard when the
   * clipboard changed, once the changes heard so far are read; a text no change brought yet (copied a moment
   * ago) by the app owning the clipboard or in front now.
   */
  async fromHiddenApp(text: string): Promise<AppRefused | undefined> {
    await this.reads;
    const digest = digestOf(text);
    if (digest === this.hidden?.digest) return this.hidden.by;
    if (!this.enabled || digest === this.newestDigest || digest === this.ownDigest) return undefined;
    // Judged once: the same text is refused (or read) whatever is in front later, until something else is copied.
    const by = await this.copiedInHiddenApp().catch(() => undefined);
    if (by) {
      this.hiddenLeftOut++;
      this.heldHidden({ digest, by });
    } else this.newestDigest = digest;
    return by;
  }

  /** The hidden app's copy the clipboard holds now, or undefined when it holds none. */
  private heldHidden(hidden: { digest: string; by: AppRefused } | undefined): void {
    this.hidden = hidden;
    this.hiddenCopy.set(hidden?.by);
  }

  /** A text macpilot itself put on the clipboard. */
  add(text: string): void {
    if (!this.enabled || text === '') return;
    const digest = digestOf(text);
    if (digest === this.newestDigest) return;
    this.newestDigest = digest;
    const chars = Array.from(text);
    this.entries.unshift({ text: chars.slice(0, ENTRY_CHARS).join(''), chars: chars.length, at: this.now() });
    if (this.entries.length > HISTORY_LIMIT) this.entries.length = HISTORY_LIMIT;
  }

  /** How many texts it holds now. */
  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries = [];
    this.newestDigest = undefined;
    this.hiddenLeftOut = 0;
    this.heldHidden(undefined);
    this.generation++;
  }

  /** `limit` entries from the `offset`-th newest on. */
  async list(limit: number, offset: number): Promise<ClipboardHistoryResult> {
    if (!this.enabled)
      return {
        kind: 'clipboard-history',
        enabled: false,
        ...(this.offBy === undefined ? {} : { offBy: this.offBy }),
        live: false,
        entries: [],
        total: 0,
        offset,
      };
    const live = await this.watch();
    await this.reads;
    const entries = this.entries.slice(offset, offset + limit);
    return {
      kind: 'clipboard-history',
      enabled: true,
      live,
      entries,
      total: this.entries.length,
      offset,
      hiddenLeftOut: this.hiddenLeftOut,
    };
  }

  /**
   * Also waited for by list, so that a change heard before the call is in its answer. `copied`: false for what
   * the clipboard held when watching started, which is judged but not added (it was not copied meanwhile).
   */
  private changed(copied = true): void {
    const generation = this.generation;
    this.reads = this.reads.then(async () => {
      const { text } = await this.port.call('clipboard.read', {}).catch(() => ({ text: undefined }));
      if (text === undefined || generation !== this.generation) return;
      const digest = digestOf(text);
      const by =
        digest === this.ownDigest ? undefined : await this.copiedInHiddenApp().catch(() => undefined);
      if (by) {
        if (digest !== this.hidden?.digest) this.hiddenLeftOut++;
        this.heldHidden({ digest, by });
        return;
      }
      // A text copied elsewhere since: the hidden one copied again is counted again.
      this.heldHidden(undefined);
      if (copied) this.add(text);
      else this.newestDigest = digest;
    });
  }
}

const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex');
