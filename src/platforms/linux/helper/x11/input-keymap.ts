/**
 * The X keyboard map as XTEST typing needs it: which keycode (with or without Shift) produces a keysym, and
 * spare keycodes (rows of NoSymbol) lent to keysyms the map lacks, such as "€" or "✓" on a US layout.
 */
import { HelperErrorCode } from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';
import type { X11 } from './ewmh.js';

export interface Stroke {
  keycode: number;
  /** The keysym sits on the key's second level. */
  shift: boolean;
}

/** Told of each change the map makes itself, before the server announces it to every client (MappingNotify). */
export type OwnChange = (firstKeycode: number, count: number) => void;

export class Keymap {
  private readonly strokes = new Map<number, Stroke>();
  private readonly spares: number[] = [];
  /** Keysyms lent a spare keycode, least recently used first (Map keeps insertion order). */
  private readonly lent = new Map<number, number>();

  private constructor(
    private readonly x11: X11,
    private readonly first: number,
    /** The map as the server has it, one row of keysyms per keycode from `first`. */
    private readonly rows: number[][],
    private readonly ownChange: OwnChange,
  ) {
    rows.forEach((row, i) => {
      const keycode = first + i;
      if (row.every((keysym) => keysym === 0)) this.spares.push(keycode);
      // Levels 1 and 2 of the first group; the lowest keycode wins, an unshifted stroke over a shifted one. A
      // keypad's second level is Num Lock's, not Shift's: a keypad keysym found there only is lent a keycode.
      for (const [level, keysym] of row.slice(0, 2).entries()) {
        const known = this.strokes.get(keysym);
        if (level === 1 && isKeypad(keysym)) continue;
        if (keysym !== 0 && (!known || (known.shift && level === 0))) {
          this.strokes.set(keysym, { keycode, shift: level === 1 });
        }
      }
    });
  }

  /**
   * The map as the server has it now. After a change of layout, keycodes the `previous` map lent and that still
   * hold what it lent are emptied again (a new layout that uses such a keycode for a key of its own keeps it).
   */
  static async load(x11: X11, ownChange: OwnChange, previous?: Keymap): Promise<Keymap> {
    const { min_keycode: first, max_keycode: last } = x11.client.display;
    const rows = await x11.x<number[][]>((cb) => x11.client.GetKeyboardMapping(first, last - first + 1, cb));
    const leftovers = [...(previous?.lent ?? [])]
      .filter(([keysym, keycode]) => rows[keycode - first]?.[0] === keysym)
      .map(([, keycode]) => keycode);
    for (const keycode of leftovers) rows[keycode - first]?.fill(0);
    const keymap = new Keymap(x11, first, rows, ownChange);
    if (leftovers.length > 0) await keymap.send(leftovers);
    return keymap;
  }

  /** The keysyms a key types plain and with Shift (0: none), as the map stood when loaded. */
  levels(keycode: number): [plain: number, shifted: number] {
    const row = this.rows[keycode - this.first] ?? [];
    const plain = row[0] ?? 0;
    return [plain, row[1] || plain];
  }

  /** The key for a keysym, only if the map has it. */
  mapped(keysym: number): Stroke | undefined {
    return this.strokes.get(keysym);
  }

  /**
   * Runs of keysyms, in order, each needing at most as many keycodes as there are spares: lend() takes one
   * run at a time.
   */
  runs(keysyms: readonly number[]): number[][] {
    const out: number[][] = [];
    let run: number[] = [];
    const missing = new Set<number>();
    for (const keysym of keysyms) {
      if (!this.strokes.has(keysym) && !missing.has(keysym)) {
        if (missing.size === this.spares.length && run.length > 0) {
          out.push(run);
          run = [];
          missing.clear();
        }
        missing.add(keysym);
      }
      run.push(keysym);
    }
    if (run.length > 0) out.push(run);
    return out;
  }

  /**
   * The key for each keysym; keysyms the map lacks are lent spare keycodes, all in one change (every change
   * makes each client re-read the map), in effect once this resolves.
   */
  async lend(keysyms: readonly number[]): Promise<Stroke[]> {
    const missing = [...new Set(keysyms)].filter((k) => !this.strokes.has(k));
    if (missing.length > this.spares.length) {
      throw new HelperFailure(
        HelperErrorCode.NotAvailable,
        'the keyboard map has too few free keycodes for the characters it lacks',
        'type fewer different characters at once, or use set_value',
      );
    }
    const changed: number[] = [];
    for (const keysym of missing) {
      const keycode = this.lent.get(keysym);
      this.lent.delete(keysym);
      if (keycode !== undefined) {
        this.lent.set(keysym, keycode); // now the most recently used
        continue;
      }
      const free = this.freeSpare(new Set(missing));
      this.lent.set(keysym, free);
      // Both levels get the keysym, so Shift held or not types the same character.
      this.setRow(free, keysym);
      changed.push(free);
    }
    if (changed.length > 0) await this.send(changed);
    return keysyms.map((k) => this.strokes.get(k) ?? { keycode: this.lent.get(k) ?? 0, shift: false });
  }

  /** Whether spare keycodes are lent out. */
  get lending(): boolean {
    return this.lent.size > 0;
  }

  /** Give every lent keycode back its empty row, in one change. */
  async restore(): Promise<void> {
    const keycodes = [...this.lent.values()];
    this.lent.clear();
    for (const keycode of keycodes) this.setRow(keycode, 0);
    if (keycodes.length > 0) await this.send(keycodes);
  }

  /** A free spare keycode, else the least recently lent one that `keep` does not need. */
  private freeSpare(keep: ReadonlySet<number>): number {
    const used = new Set(this.lent.values());
    const free = this.spares.find((k) => !used.has(k));
    if (free !== undefined) return free;
    const [keysym, keycode] = [...this.lent].find(([k]) => !keep.has(k)) ?? [];
    if (keysym === undefined || keycode === undefined) throw new Error('no spare keycode left to lend');
    this.lent.delete(keysym);
    return keycode;
  }

  private setRow(keycode: number, keysym: number): void {
    const row = this.rows[keycode - this.first];
    if (row) row.fill(0).fill(keysym, 0, Math.min(2, row.length));
  }

  /** One ChangeKeyboardMapping over the keycodes' span, then a round trip so the change is in effect. */
  private async send(keycodes: readonly number[]): Promise<void> {
    const low = Math.min(...keycodes);
    const high = Math.max(...keycodes);
    const span = this.rows.slice(low - this.first, high - this.first + 1);
    this.ownChange(low, span.length);
    this.x11.client.ChangeKeyboardMapping(low, span[0]?.length ?? 0, span.flat());
    await this.x11.sync();
  }
}

/** KP_Space to KP_9 (X keysyms 0xff80-0xffbd): the numeric keypad's. */
const isKeypad = (keysym: number): boolean => keysym >= 0xff80 && keysym <= 0xffbd;
