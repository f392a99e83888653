/**
 * Buttons and keys an agent holds down across calls (mouse_down, key_down), by the session holding them: listed
 * in session_info, and released when their session ends or a call of it is cancelled, when the person stops
 * agents at the desk, and when a new helper starts (the one that pressed them is gone, and the X server or
 * macOS keeps a synthetic press down until something releases it).
 */
import type { CallOptions } from '../../helper-client/errors.js';
import type { Modifier, MouseButton } from '../../helper-client/protocol.js';
import type { HelperPort } from '../kernel/port.js';
import type { ActionResult } from '../kernel/results.js';
import { own, words } from '../kernel/words.js';
import type { Key } from '../../keys.js';
import type { HeldKey, Input, Spot } from './input.js';

export type HeldPart = { kind: 'button'; button: MouseButton } | { kind: 'key'; key: HeldKey };

const idOf = (part: HeldPart) => (part.kind === 'button' ? `button:${part.button}` : `key:${part.key.name}`);
const nameOf = (part: HeldPart) => (part.kind === 'button' ? `the ${part.button} button` : part.key.name);

export class HeldInput {
  private readonly byHolder = new Map<object, Map<string, HeldPart>>();

  constructor(
    private readonly input: Input,
    port: HelperPort,
  ) {
    port.onReady?.(() => void this.releaseAll().catch(() => {}));
  }

  /** The modifiers every session holds down now: they go with any key pressed meanwhile. */
  heldModifiers(): Modifier[] {
    return [...this.byHolder.values()].flatMap((parts) =>
      [...parts.values()].flatMap((part) =>
        part.kind === 'key' && 'modifier' in part.key ? [part.key.modifier] : [],
      ),
    );
  }

  /** The keys other than modifiers every session holds down now. */
  heldKeys(): Key[] {
    return [...this.byHolder.values()].flatMap((parts) =>
      [...parts.values()].flatMap((part) => (part.kind === 'key' && 'key' in part.key ? [part.key.key] : [])),
    );
  }

  /** What `holder` holds down now, in words ("shift", "the left button"). */
  heldBy(holder: object): string[] {
    return [...(this.byHolder.get(holder)?.values() ?? [])].map(nameOf);
  }

  async press(part: HeldPart, holder: object, spot?: Spot, call?: CallOptions): Promise<ActionResult> {
    const done = await this.send(part, true, spot, call);
    const mine = this.byHolder.get(holder) ?? new Map<string, HeldPart>();
    this.byHolder.set(holder, mine);
    mine.set(idOf(part), part);
    const releaser = part.kind === 'button' ? 'mouse_up' : 'key_up';
    return this.noting(done, holder, ` It stays down until ${releaser} releases it or the session ends.`);
  }

  /** Release what `holder` pressed; a part it does not hold is left alone, and the answer says so. */
  async release(part: HeldPart, holder: object, spot?: Spot, call?: CallOptions): Promise<ActionResult> {
    const mine = this.byHolder.get(holder);
    if (!mine?.has(idOf(part))) {
      const held = this.heldBy(holder);
      return {
        kind: 'action',
        done: own(
          `${nameOf(part)} was not held down by this session, so nothing was sent. ${held.length > 0 ? `Held: ${held.join(', ')}.` : 'Nothing is held.'}`,
        ),
        nothingSent: true,
      };
    }
    const done = await this.send(part, false, spot, call);
    mine.delete(idOf(part));
    return this.noting(done, holder, '');
  }

  /** Release what `holder` holds (every holder's when absent), each even when another fails; what was released. */
  async releaseAll(holder?: object, call?: CallOptions): Promise<string[]> {
    const holders = holder === undefined ? [...this.byHolder.keys()] : [holder];
    const released: string[] = [];
    for (const each of holders) {
      const mine = this.byHolder.get(each);
      this.byHolder.delete(each);
      // Keys last pressed first, as a person lets go of a chord.
      for (const part of [...(mine?.values() ?? [])].reverse()) {
        await this.input.letGo(part.kind === 'button' ? part : { key: part.key }, call).then(
          () => released.push(nameOf(part)),
          () => {},
        );
      }
    }
    return released;
  }

  private send(part: HeldPart, down: boolean, spot: Spot | undefined, call?: CallOptions) {
    return part.kind === 'button'
      ? this.input.button(part.button, down, spot, call)
      : this.input.hold(part.key, down, call);
  }

  private noting(result: ActionResult, holder: object, note: string): ActionResult {
    const held = this.heldBy(holder);
    const now = held.length > 0 ? ` Held now: ${held.join(', ')}.` : ' Nothing is held now.';
    return { ...result, done: words`${result.done}${own(`${note}${now}`)}` };
  }
}
