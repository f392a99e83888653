/**
 * The console's live picture of the screen: taken only while a page watches, often while agents act and seldom
 * when they do not, and announced only when it differs from the last one (an idle desktop is one still image).
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bounds } from '../helper-client/protocol.js';

/** One picture: a JPEG, and the area of the screen it shows, in screen points. */
export interface Frame {
  jpeg: Buffer;
  area: Bounds;
}

/** Between two pictures while a call runs or just ran. */
export const BUSY_EVERY_MS = 500;
/** Between two pictures while no agent acts: what the person does themselves still shows, a little later. */
export const IDLE_EVERY_MS = 3000;

export class LiveScreen {
  private readonly listeners = new Set<(version: number, area: Bounds) => void>();
  private frame: Frame | undefined;
  private digest = '';
  private version = 0;
  private running = false;

  /**
   * `capture`: a JPEG of the screen, or undefined where none can be taken; `busy`: whether agents act now (the
   * pictures come faster).
   */
  constructor(
    private readonly capture: () => Promise<Frame | undefined>,
    private readonly busy: () => boolean,
  ) {}

  /** `listener` hears each new picture's version; the pictures are taken while anyone listens. */
  watch(listener: (version: number, area: Bounds) => void): () => void {
    this.listeners.add(listener);
    if (this.frame) listener(this.version, this.frame.area);
    if (!this.running) void this.loop();
    return () => this.listeners.delete(listener);
  }

  latest(): Buffer | undefined {
    return this.frame?.jpeg;
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      while (this.listeners.size > 0) {
        const frame = await this.capture().catch(() => undefined);
        if (frame) this.take(frame);
        const wait = this.busy() ? BUSY_EVERY_MS : IDLE_EVERY_MS;
        // An idle wait ends early when an agent starts to act.
        for (let waited = 0; waited < wait && this.listeners.size > 0; waited += BUSY_EVERY_MS) {
          await sleep(BUSY_EVERY_MS);
          if (this.busy()) break;
        }
      }
    } finally {
      this.running = false;
    }
  }

  private take(frame: Frame): void {
    const digest = createHash('sha1').update(frame.jpeg).digest('hex');
    if (digest === this.digest) return;
    this.digest = digest;
    this.frame = frame;
    this.version++;
    for (const listener of this.listeners) listener(this.version, frame.area);
  }
}
