/**
 * The key and button events this helper sent through XTEST, kept a few seconds so that a recording can leave
 * them out. The X server records every device event alike: XTEST input of the helper's and of another program
 * (xdotool, a remote desktop) come from the same devices, so the helper tells its own by what it sent. Events
 * are matched by kind and key or button, oldest first: the server processes one client's requests in order.
 */
import type { X11 } from './ewmh.js';

/** Core event codes, as XTEST FakeInput takes them and the RECORD extension reports them. */
export const KEY_PRESS = 2;
export const KEY_RELEASE = 3;
export const BUTTON_PRESS = 4;
export const BUTTON_RELEASE = 5;

/** How long a sent event waits to be heard: far above the server's lag, under a person's next key after it. */
const HEARD_WITHIN_MS = 5000;
/**
 * A key held this long may have been repeated by the server (X's default repeat delay is 660 ms); its repeats
 * may still be on their way to the recorder this long after its release.
 */
const REPEATS_AFTER_MS = 400;
const REPEATS_HEARD_WITHIN_MS = 1000;

interface Sent {
  type: number;
  detail: number;
  at: number;
}

export class OwnInput {
  /** Recordings running; only while one runs is what is sent kept (else it would never be claimed). */
  private listeners = 0;
  private sent: Sent[] = [];
  /** Keycodes the helper pressed and has not released, with when: the server's autorepeat presses them again. */
  private readonly keysDown = new Map<number, number>();
  /** Keycodes held long enough to repeat, with when they were released. */
  private readonly repeatedUntil = new Map<number, number>();

  listen(): () => void {
    this.listeners++;
    return () => {
      this.listeners--;
      if (this.listeners === 0) this.sent = [];
    };
  }

  note(type: number, detail: number): void {
    const now = Date.now();
    if (this.listeners > 0) {
      this.forgetBefore(now - HEARD_WITHIN_MS);
      this.sent.push({ type, detail, at: now });
    }
    if (type === KEY_PRESS && !this.keysDown.has(detail)) this.keysDown.set(detail, now);
    else if (type === KEY_RELEASE) {
      const since = this.keysDown.get(detail);
      this.keysDown.delete(detail);
      if (since !== undefined && now - since >= REPEATS_AFTER_MS) {
        this.repeatedUntil.set(detail, now + REPEATS_HEARD_WITHIN_MS);
      }
    }
  }

  /** Whether a recorded event is one this helper sent; each sent event accounts for one recorded event. */
  claims(type: number, detail: number): boolean {
    this.forgetBefore(Date.now() - HEARD_WITHIN_MS);
    const i = this.sent.findIndex((s) => s.type === type && s.detail === detail);
    if (i >= 0) {
      this.sent.splice(i, 1);
      return true;
    }
    if (type !== KEY_PRESS && type !== KEY_RELEASE) return false;
    return this.keysDown.has(detail) || (this.repeatedUntil.get(detail) ?? 0) > Date.now();
  }

  private forgetBefore(time: number): void {
    const kept = this.sent.findIndex((s) => s.at >= time);
    if (kept !== 0) this.sent = kept < 0 ? [] : this.sent.slice(kept);
  }
}

const ownInputs = new WeakMap<X11, OwnInput>();

/** The events sent through the display connection `x11`. */
export function ownInputOf(x11: X11): OwnInput {
  let own = ownInputs.get(x11);
  if (!own) {
    own = new OwnInput();
    ownInputs.set(x11, own);
  }
  return own;
}
