/**
 * What changes on the desktop, as it happens, for the front ends that watch rather than poll (MCP resource
 * subscriptions, observe_changes): the helper's UI change events of every app, with a short history per app, and
 * the clipboard's changes. Event streams start on first need and again after every helper restart.
 */
import type { HelperPort } from './port.js';
import type { Observer } from './observer.js';

/** One `observe.changed` notification: the kinds of events an app reported, folded. */
export interface ChangeEvent {
  pid: number;
  kinds: string[];
  count: number;
  /** The elements the events were about (handles) with their kinds, when the helper named them. */
  elements?: { id: string; kinds: string[] }[];
  /** Date.now() when it arrived. */
  at: number;
}

/** How many events are kept per app for its history. */
const HISTORY = 50;

export class ChangeFeed {
  private readonly history = new Map<number, ChangeEvent[]>();
  private readonly changeListeners = new Set<(event: ChangeEvent) => void>();
  private readonly clipboardListeners = new Set<() => void>();
  /** Set once something watched the clipboard: from then on every helper (re)start is asked to watch it. */
  private clipboardWatch: Promise<boolean> | undefined;

  constructor(
    private readonly port: HelperPort,
    private readonly observer: Observer,
  ) {
    port.onNotification?.('observe.changed', ({ pid, kinds, count, elements }) => {
      const event: ChangeEvent = { pid, kinds, count, ...(elements ? { elements } : {}), at: Date.now() };
      const events = this.history.get(pid) ?? [];
      events.push(event);
      if (events.length > HISTORY) events.splice(0, events.length - HISTORY);
      this.history.set(pid, events);
      for (const listener of [...this.changeListeners]) listener(event);
    });
    port.onNotification?.('clipboard.changed', () => {
      for (const listener of [...this.clipboardListeners]) listener();
    });
    port.onReady?.(() => {
      if (this.clipboardWatch) this.clipboardWatch = this.watchClipboard();
    });
  }

  /** Calls `listener` for every app's change events; false when this helper sends none. */
  async onChange(listener: (event: ChangeEvent) => void): Promise<{ stop: () => void; live: boolean }> {
    this.changeListeners.add(listener);
    const live = await this.observer.available();
    return { stop: () => this.changeListeners.delete(listener), live };
  }

  /** Calls `listener` whenever the clipboard changes; false when this helper cannot tell. */
  async onClipboard(listener: () => void): Promise<{ stop: () => void; live: boolean }> {
    this.clipboardListeners.add(listener);
    this.clipboardWatch ??= this.watchClipboard();
    const live = await this.clipboardWatch;
    return { stop: () => this.clipboardListeners.delete(listener), live };
  }

  /** The app's most recent change events, oldest first (only those since something started watching). */
  recent(pid: number): ChangeEvent[] {
    return [...(this.history.get(pid) ?? [])];
  }

  /** Starts the helper's event stream, so that history builds up from now on. */
  start(): Promise<boolean> {
    return this.observer.available();
  }

  private watchClipboard(): Promise<boolean> {
    return this.port.call('clipboard.watch', {}).then(
      () => true,
      () => false,
    );
  }
}
