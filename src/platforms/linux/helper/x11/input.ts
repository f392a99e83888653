/**
 * Synthetic mouse and keyboard input over XTEST FakeInput. Every method answers after a round trip, so the X
 * server has processed (and dispatched) every event it sent. One device per X connection; its operations run
 * one at a time so that two requests never interleave their presses.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type * as x11 from 'x11';
import {
  type Capability,
  HelperErrorCode,
  type Modifier,
  type MouseButton,
  type Params,
  type Point,
  type Result,
} from '../../../../helper-client/protocol.js';
import { HelperFailure, typingError } from '../../errors.js';
import type { X11 } from './ewmh.js';
import { Keymap, type Stroke } from './input-keymap.js';
import type { Session } from '../session.js';
import { type PersonInput, PersonWatch } from './person-watch.js';
import { onX11 } from './x11-range.js';
import {
  BUTTON_PRESS,
  BUTTON_RELEASE,
  KEY_PRESS,
  KEY_RELEASE,
  type OwnInput,
  ownInputOf,
} from './own-input.js';
import { checkHoldTarget, checkWheelSteps, glide, refuseBackgroundKeys } from '../pointer-path.js';
import { keysymsOf, MODIFIER_KEYSYMS } from '../keysyms.js';

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
const WHEEL = { up: 4, down: 5, left: 6, right: 7 } as const;

/** Button1Mask to Button5Mask of a pointer's state. */
const BUTTON_MASKS = 0x1f00;
const buttonMask = (button: number) => 1 << (7 + button);
/** Longest wait for a frozen pointer to take the buttons' releases. */
const FROZEN_POINTER_MS = 1000;
const POLL_MS = 5;
/** Well under the usual double-click time (GTK 400 ms), long enough for apps to see separate clicks. */
const CLICK_GAP_MS = 40;
/** Typed characters between round trips when there is no delay: the server keeps pace with the app. */
const TYPE_BATCH = 64;
/** Repeated keys or wheel steps between round trips, each a point where a cancel stops them. */
const REPEAT_BATCH = 16;
/**
 * Lent keycodes go back to NoSymbol once typing has been idle this long. Not at once: an app translates a key
 * event with the map current when it reads the event, which can be after a prompt restore.
 */
const RESTORE_IDLE_MS = 1000;
/**
 * A text with more characters the layout lacks than there are spare keycodes (Latin text under a Russian
 * layout) is typed in runs; before a run lends a keycode again, the app gets this long to read the keys typed
 * with it, which it translates with the map current when it reads them.
 */
const RELEND_SETTLE_MS = 150;

/** MappingNotify's request for a change of the keyboard map (0: modifiers, 2: pointer buttons). */
const MAPPING_KEYBOARD = 1;

interface MappingNotify {
  name?: string;
  request?: number;
  firstKeyCode?: number;
  count?: number;
}

class Device {
  private queue: Promise<unknown> = Promise.resolve();
  private restoreTimer: NodeJS.Timeout | undefined;
  private map: Keymap | undefined;
  /** Another client changed the keyboard map (setxkbmap, a layout switch): read it again before the next key. */
  private stale = false;
  /** Changes of the map's own not yet announced by the server, as "first:count". */
  private readonly own: string[] = [];
  /** Buttons and keycodes pressed by input.button and input.hold and not released yet. */
  readonly heldButtons = new Set<number>();
  readonly heldKeys = new Set<number>();
  /** While set (input.personFirst), the person's input stops an operation; see PersonWatch. */
  person: { watch: PersonWatch; quietMs: number } | undefined;
  /** When the running operation began (Date.now()), while one runs. */
  private runningSince: number | undefined;
  /** What this device sent, for a recording to leave out. */
  private readonly sent: OwnInput;

  constructor(
    private readonly x11: X11,
    private readonly xtest: x11.XTest,
  ) {
    this.sent = ownInputOf(x11);
    x11.client.on('event', (event: MappingNotify) => {
      if (event.name !== 'MappingNotify' || event.request !== MAPPING_KEYBOARD) return;
      const i = this.own.indexOf(`${event.firstKeyCode}:${event.count}`);
      if (i >= 0) this.own.splice(i, 1);
      else this.stale = true;
    });
  }

  get keymap(): Keymap {
    if (!this.map) throw new Error('the keyboard map is read when the device opens');
    return this.map;
  }

  /** Read the keyboard map as the server has it now. */
  async loadKeymap(): Promise<void> {
    this.stale = false;
    const ownChange = (first: number, count: number) => this.own.push(`${first}:${count}`);
    this.map = await Keymap.load(this.x11, ownChange, this.map);
  }

  /**
   * Run one operation after the previous ones; answer once its events are processed. One cancelled while it
   * waited for its turn does not run at all. One that `yields` stops for the person's input (input.personFirst);
   * a release never does: it gives the desk back.
   */
  run<T>(operation: () => Promise<T>, signal?: AbortSignal, yields = true): Promise<T> {
    const next = this.queue.then(async () => {
      signal?.throwIfAborted();
      clearTimeout(this.restoreTimer);
      if (this.stale) await this.loadKeymap();
      const started = Date.now();
      if (this.person && yields) {
        this.yieldTo(this.person.watch.since(started - this.person.quietMs), 'before');
      }
      try {
        this.runningSince = yields ? started : undefined;
        const result = await operation();
        this.runningSince = undefined;
        await this.released();
        return result;
      } finally {
        this.runningSince = undefined;
        if (this.keymap.lending) this.scheduleRestore();
      }
    });
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * Wait until the server has processed every button release. A window manager's passive grab (openbox's
   * click-to-focus) freezes the pointer until it replays the press, while key events flow on: keys typed right
   * after a click would overtake it.
   */
  private async released(): Promise<void> {
    // Buttons held on purpose (input.button) stay down.
    const held = [...this.heldButtons].reduce((mask, button) => mask | buttonMask(button), 0);
    const pressed = BUTTON_MASKS & ~held;
    const deadline = Date.now() + FROZEN_POINTER_MS;
    while ((await this.pointer()).keyMask & pressed && Date.now() < deadline) await sleep(POLL_MS);
  }

  /** Release every button and key held on purpose, keys last pressed first. */
  releaseHeld(): void {
    for (const keycode of [...this.heldKeys].reverse()) this.key(keycode, false);
    for (const button of this.heldButtons) this.button(button, false);
    this.heldKeys.clear();
    this.heldButtons.clear();
  }

  private scheduleRestore(): void {
    this.restoreTimer = setTimeout(() => {
      void this.run(() => this.keymap.restore()).catch(() => {});
    }, RESTORE_IDLE_MS);
    this.restoreTimer.unref();
  }

  /** Only with a point onX11 accepted (a glide's points lie between two such points). */
  moveTo(at: Point): void {
    this.xtest.FakeInput(this.xtest.MotionNotify, 0, 0, this.x11.root, Math.floor(at.x), Math.floor(at.y));
  }

  button(button: number, down: boolean): void {
    this.sent.note(down ? BUTTON_PRESS : BUTTON_RELEASE, button);
    this.xtest.FakeInput(down ? this.xtest.ButtonPress : this.xtest.ButtonRelease, button, 0, 0, 0, 0);
  }

  key(keycode: number, down: boolean): void {
    this.sent.note(down ? KEY_PRESS : KEY_RELEASE, keycode);
    this.xtest.FakeInput(down ? this.xtest.KeyPress : this.xtest.KeyRelease, keycode, 0, 0, 0, 0);
  }

  /** Press the modifiers' keys, run `inside`, release them in reverse order, even if `inside` fails. */
  async holding<T>(modifiers: readonly Modifier[], inside: () => Promise<T>): Promise<T> {
    const keycodes = [...new Set(modifiers.map((m) => this.modifierKeycode(m)))];
    for (const keycode of keycodes) this.key(keycode, true);
    try {
      return await inside();
    } finally {
      for (const keycode of keycodes.reverse()) this.key(keycode, false);
    }
  }

  /** One key stroke, Shift added when the keysym is on the key's second level; repeats stop on `signal`. */
  async stroke(stroke: Stroke, times = 1, signal?: AbortSignal): Promise<void> {
    const shift = stroke.shift ? this.modifierKeycode('shift') : undefined;
    if (shift !== undefined) this.key(shift, true);
    try {
      for (let i = 0; i < times; i++) {
        await this.checkpoint(i, signal);
        this.key(stroke.keycode, true);
        this.key(stroke.keycode, false);
      }
    } finally {
      if (shift !== undefined) this.key(shift, false);
    }
  }

  /** Every REPEAT_BATCH repeats: a round trip, then a cancel stops the repeats there. */
  async checkpoint(repeat: number, signal: AbortSignal | undefined): Promise<void> {
    if (repeat === 0 || repeat % REPEAT_BATCH !== 0) return;
    await this.sync();
    signal?.throwIfAborted();
  }

  pointer(): Promise<x11.Pointer> {
    return this.x11.x<x11.Pointer>((cb) => this.x11.client.QueryPointer(this.x11.root, cb));
  }

  /** A round trip; the person's input heard by then, during an operation, stops it (input.personFirst). */
  async sync(): Promise<void> {
    await this.x11.sync();
    if (this.person && this.runningSince !== undefined) {
      this.yieldTo(this.person.watch.since(this.runningSince), 'while');
    }
  }

  private yieldTo(input: PersonInput | undefined, when: 'before' | 'while'): void {
    if (!input) return;
    const ago = Date.now() - input.at;
    throw new HelperFailure(
      HelperErrorCode.PersonActive,
      `the person used the ${input.kind === 'motion' ? 'pointer' : input.kind === 'key' ? 'keyboard' : 'mouse buttons'} (${input.device}) ${ago} ms ago, ${when === 'before' ? 'just before this input would have begun, so none was sent' : 'while this input ran, so the rest was not sent'}`,
      'wait until the person has stopped using the mouse and keyboard, then try again',
    );
  }

  modifierKeycode(modifier: Modifier): number {
    if (modifier === 'fn') {
      throw new HelperFailure(
        HelperErrorCode.InvalidParams,
        'the fn modifier does not exist on X11: the keyboard handles it before the system sees a key',
        'leave fn out; press the key fn would produce (e.g. "pageup" for fn+up)',
      );
    }
    const stroke = this.keymap.mapped(MODIFIER_KEYSYMS[modifier]);
    if (!stroke) {
      throw new HelperFailure(
        HelperErrorCode.NotAvailable,
        `the keyboard map has no key for the ${modifier} modifier`,
        'load a standard keyboard layout (setxkbmap us)',
      );
    }
    return stroke.keycode;
  }
}

const devices = new WeakMap<X11, Promise<Device>>();

async function openDevice(x11: X11): Promise<Device> {
  const xtest = await x11.x<x11.XTest>((cb) => x11.client.require('xtest', cb));
  const device = new Device(x11, xtest);
  await device.loadKeymap();
  return device;
}

async function device(session: Session): Promise<Device> {
  const display = await session.x11();
  let opened = devices.get(display);
  if (!opened) {
    opened = openDevice(display).catch((error: unknown) => {
      devices.delete(display);
      throw new HelperFailure(
        HelperErrorCode.NotAvailable,
        `no synthetic input: the X server lacks the XTEST extension (${error instanceof Error ? error.message : String(error)})`,
        'start the X server with XTEST enabled (Xorg and Xvfb enable it by default)',
      );
    });
    devices.set(display, opened);
  }
  return opened;
}

const ok = {};

export async function click(
  session: Session,
  params: Params<'input.click'>,
  signal?: AbortSignal,
): Promise<Result<'input.click'>> {
  const at = onX11('point', params.at);
  const input = await device(session);
  return input.run(async () => {
    input.moveTo(at);
    await input.holding(params.modifiers, async () => {
      for (let i = 0; i < params.count; i++) {
        if (i > 0) {
          await input.sync();
          await sleep(CLICK_GAP_MS, undefined, { signal });
        }
        input.button(BUTTONS[params.button], true);
        input.button(BUTTONS[params.button], false);
      }
    });
    return ok;
  }, signal);
}

export async function move(
  session: Session,
  params: Params<'input.move'>,
  signal?: AbortSignal,
): Promise<Result<'input.move'>> {
  const to = onX11('point', params.to);
  const input = await device(session);
  return input.run(async () => {
    if (params.durationMs === 0) input.moveTo(to);
    else await glide(input, toPoint(await input.pointer()), to, params.durationMs, false, signal);
    return ok;
  }, signal);
}

export async function drag(
  session: Session,
  params: Params<'input.drag'>,
  signal?: AbortSignal,
): Promise<Result<'input.drag'>> {
  const from = onX11('start point', params.from);
  const to = onX11('end point', params.to);
  const input = await device(session);
  const button = BUTTONS[params.button];
  return input.run(async () => {
    input.moveTo(from);
    await input.holding(params.modifiers, async () => {
      input.button(button, true);
      try {
        await glide(input, from, to, params.durationMs, true, signal);
      } finally {
        input.button(button, false);
      }
    });
    return ok;
  }, signal);
}

export async function scroll(
  session: Session,
  params: Params<'input.scroll'>,
  signal?: AbortSignal,
): Promise<Result<'input.scroll'>> {
  const at = onX11('point', params.at);
  if (params.unit === 'pixel') {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      'X11 scrolls in wheel steps, not pixels',
      'send wheel steps (unit "step")',
    );
  }
  checkWheelSteps(params);
  const input = await device(session);
  return input.run(async () => {
    input.moveTo(at);
    const turns: [number, number][] = [
      [params.dy > 0 ? WHEEL.down : WHEEL.up, Math.abs(params.dy)],
      [params.dx > 0 ? WHEEL.right : WHEEL.left, Math.abs(params.dx)],
    ];
    for (const [button, steps] of turns) {
      for (let i = 0; i < steps; i++) {
        await input.checkpoint(i, signal);
        input.button(button, true);
        input.button(button, false);
      }
    }
    return ok;
  }, signal);
}

const toPoint = (pointer: x11.Pointer): Point => ({ x: pointer.rootX, y: pointer.rootY });

export async function pointer(session: Session): Promise<Result<'input.pointer'>> {
  const input = await device(session);
  return { at: toPoint(await input.pointer()) };
}

/** Types the text a key at a time; a cancel stops it between two keys (a delay is cut short too). */
export async function type(
  session: Session,
  params: Params<'input.type'>,
  signal?: AbortSignal,
): Promise<Result<'input.type'>> {
  const keysyms = keysymsOf(params.text);
  const input = await device(session);
  return input.run(async () => {
    let typed = 0;
    try {
      for (const [i, run] of input.keymap.runs(keysyms).entries()) {
        // A new run lends keycodes again that the last one used: the app must have read those keys first.
        if (i > 0) {
          await input.sync();
          await sleep(RELEND_SETTLE_MS, undefined, { signal });
        }
        for (const stroke of await input.keymap.lend(run)) {
          signal?.throwIfAborted();
          await input.stroke(stroke);
          typed++;
          if (params.delayMs > 0) {
            await input.sync();
            await sleep(params.delayMs, undefined, { signal });
          } else if (typed % TYPE_BATCH === 0) await input.sync();
        }
      }
    } catch (error) {
      // Stopped for the person: how far the text got is part of the answer.
      if (error instanceof HelperFailure && error.code === HelperErrorCode.PersonActive && typed > 0) {
        throw new HelperFailure(
          error.code,
          `${error.message}: ${typed} of ${keysyms.length} characters were typed`,
          error.hint,
        );
      }
      throw typingError(error, typed, signal);
    }
    return { typed };
  }, signal);
}

export async function key(
  session: Session,
  params: Params<'input.key'>,
  signal?: AbortSignal,
): Promise<Result<'input.key'>> {
  if (params.pid !== undefined) refuseBackgroundKeys('X11');
  const input = await device(session);
  return input.run(async () => {
    const [stroke] = await input.keymap.lend([params.code]);
    if (stroke) await input.holding(params.modifiers, () => input.stroke(stroke, params.repeat, signal));
    return ok;
  }, signal);
}

/** Press or release a mouse button and leave it so; the helper releases it when it exits. */
export async function button(
  session: Session,
  params: Params<'input.button'>,
  signal?: AbortSignal,
): Promise<Result<'input.button'>> {
  const at = params.at === undefined ? undefined : onX11('point', params.at);
  const input = await device(session);
  const code = BUTTONS[params.button];
  return input.run(
    async () => {
      if (at) input.moveTo(at);
      input.button(code, params.down);
      if (params.down) input.heldButtons.add(code);
      else input.heldButtons.delete(code);
      return ok;
    },
    signal,
    params.down,
  );
}

/** Press or release a key (by keysym) or a modifier key and leave it so; released when the helper exits. */
export async function hold(
  session: Session,
  params: Params<'input.hold'>,
  signal?: AbortSignal,
): Promise<Result<'input.hold'>> {
  checkHoldTarget(params);
  const input = await device(session);
  return input.run(
    async () => {
      const { modifier } = params;
      let keycode: number;
      if (modifier !== undefined) keycode = input.modifierKeycode(modifier);
      else {
        // A keysym the layout lacks is lent a keycode, as for typing.
        const [stroke] = await input.keymap.lend([params.code ?? 0]);
        keycode = stroke?.keycode ?? 0;
      }
      input.key(keycode, params.down);
      if (params.down) input.heldKeys.add(keycode);
      else input.heldKeys.delete(keycode);
      return ok;
    },
    signal,
    params.down,
  );
}

const watches = new WeakMap<X11, Promise<PersonWatch>>();

/** Turns the person watch on or off for this display's input; says why not where XI2 is missing. */
export async function personFirst(
  session: Session,
  params: Params<'input.personFirst'>,
): Promise<Result<'input.personFirst'>> {
  const input = await device(session);
  if (!params.on) {
    input.person = undefined;
    return { watching: false };
  }
  const display = await session.x11();
  let opening = watches.get(display);
  if (!opening) {
    opening = PersonWatch.open(display);
    watches.set(display, opening);
    opening.catch(() => watches.delete(display));
  }
  try {
    input.person = { watch: await opening, quietMs: params.quietMs };
    return { watching: true };
  } catch (error) {
    return { watching: false, why: error instanceof Error ? error.message : String(error) };
  }
}

/** Release what input.button and input.hold left pressed (the helper is exiting); waits for the server. */
export async function releaseHeld(session: Session): Promise<void> {
  const display = await session.x11();
  const opened = devices.get(display);
  if (!opened) return;
  const input = await opened;
  input.releaseHeld();
  await input.sync();
}

/** For system.hello: whether XTEST is there. */
/** Whether synthetic input works here (the XTEST device opens once per display). */
export function hasInput(session: Session): Promise<boolean> {
  return device(session).then(
    () => true,
    () => false,
  );
}

export async function inputCapability(session: Session): Promise<Capability> {
  try {
    const display = await session.x11();
    await device(session);
    const xtest = await display.x<x11.XTest>((cb) => display.client.require('xtest', cb));
    const [major, minor] = await display.x<[number, number]>((cb) => xtest.GetVersion(2, 2, cb));
    return {
      available: true,
      detail: `XTEST ${major}.${minor} on X display ${session.env.DISPLAY}: mouse and keyboard input`,
    };
  } catch (error) {
    return { available: false, detail: error instanceof Error ? error.message : String(error) };
  }
}
