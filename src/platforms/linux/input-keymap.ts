/**
 * The X keyboard map as XTEST typing needs it: which keycode (with or without Shift) produces a keysym, and
 * spare keycodes (rows of NoSymbol) lent to keysyms the map lacks, such as "€" or "✓" on a US layout.
 */
import { HelperErrorCode } from '../../helper/protocol.js';
import { HelperFailure } from './errors.js';
import type { X11 } from './ewmh.js';

export interface Stroke {
  keycode: number;
  /** The keysym sits on the key's second level. */
  shift: boolean;
}

export class Keymap {
  private readonly strokes = new Map<number, Stroke>();
  private readonly spares: number[] = [];
  /** Keysyms lent a spare keycode, least recently used first (Map keeps insertion order). */
  private readonly lent = new Map<number, number>();

  private constructor(
    private readonly x11: X11,
    private readonly perKeycode: number,
    first: number,
    rows: readonly number[][],
  ) {
    rows.forEach((row, i) => {
      const keycode = first + i;
      if (row.every((keysym) => keysym === 0)) this.spares.push(keycode);
      // Levels 1 and 2 of the first group; the lowest keycode wins, an unshifted stroke over a shifted one.
      for (const [level, keysym] of row.slice(0, 2).entries()) {
        const known = this.strokes.get(keysym);
        if (keysym !== 0 && (!known || (known.shift && level === 0))) {
          this.strokes.set(keysym, { keycode, shift: level === 1 });
        }
      }
    });
  }

  static async load(x11: X11): Promise<Keymap> {
    const { min_keycode: first, max_keycode: last } = x11.client.display;
    const rows = await x11.x<number[][]>((cb) => x11.client.GetKeyboardMapping(first, last - first + 1, cb));
    return new Keymap(x11, rows[0]?.length ?? 0, first, rows);
  }

  /** The key for a keysym, only if the map has it. */
  mapped(keysym: number): Stroke | undefined {
    return this.strokes.get(keysym);
  }

  /** The key for a keysym; a keysym the map lacks is lent a spare keycode, in effect once this resolves. */
  async stroke(keysym: number): Promise<Stroke> {
    const mapped = this.strokes.get(keysym);
    if (mapped) return mapped;
    const lent = this.lent.get(keysym);
    if (lent !== undefined) {
      this.lent.delete(keysym);
      this.lent.set(keysym, lent);
      return { keycode: lent, shift: false };
    }
    const keycode = this.freeSpare();
    this.lent.set(keysym, keycode);
    this.setRow(keycode, keysym);
    // A round trip: the server has applied the change (and told every client) before any key event follows.
    await this.x11.sync();
    return { keycode, shift: false };
  }

  /** Whether spare keycodes are lent out. */
  get lending(): boolean {
    return this.lent.size > 0;
  }

  /** Give every lent keycode back its empty row. */
  async restore(): Promise<void> {
    for (const keycode of this.lent.values()) this.setRow(keycode, 0);
    this.lent.clear();
    await this.x11.sync();
  }

  private freeSpare(): number {
    const used = new Set(this.lent.values());
    const free = this.spares.find((k) => !used.has(k));
    if (free !== undefined) return free;
    const [oldest] = this.lent;
    if (!oldest) {
      throw new HelperFailure(
        HelperErrorCode.NotAvailable,
        'the keyboard map has no free keycode for a character it lacks',
        'type only characters of the current keyboard layout, or use set_value',
      );
    }
    this.lent.delete(oldest[0]);
    return oldest[1];
  }

  /** Both levels get the keysym, so Shift held or not types the same character. */
  private setRow(keycode: number, keysym: number): void {
    const row = Array.from({ length: this.perKeycode }, (_, i) => (i < 2 ? keysym : 0));
    this.x11.client.ChangeKeyboardMapping(keycode, this.perKeycode, row);
  }
}
