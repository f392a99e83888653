/**
 * record.start / record.stop: the key presses and mouse buttons a person uses, from the X RECORD extension, sent
 * to the server as `record.input` notifications. RECORD answers EnableContext with a stream of replies on the
 * connection that sent it, and that connection can carry nothing else until the context is disabled from another
 * one: so a second X connection takes the data, and the session's own makes, disables and frees the context.
 * What was typed goes only into the notifications, never to stderr.
 */
import type * as x11 from 'x11';
import {
  type Capability,
  HelperErrorCode,
  type Modifier,
  type MouseButton,
  type RecordedInput,
} from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';
import { X11 } from './ewmh.js';
import { Keymap } from './input-keymap.js';
import {
  BUTTON_PRESS,
  BUTTON_RELEASE,
  KEY_PRESS,
  KEY_RELEASE,
  type OwnInput,
  ownInputOf,
} from './own-input.js';
import { LOCK_KEYS, type Locks, NUM_LOCK, pressedKey } from './recorded-key.js';
import type { Session } from '../session.js';

/** The recorder reads the keyboard map and never changes it. */
const READ_ONLY = () => {};

/** A recorded device event is one core event; the element header asks for no extra fields. */
const EVENT_SIZE = 32;
/** EnableContext reply categories (RECORD protocol): data from the server, and the reply that opens the series. */
const FROM_SERVER = 0;
const START_OF_DATA = 4;
/** Longest wait for the server to start or end the series of replies. */
const SERIES_MS = 2000;

const BUTTONS: Readonly<Record<number, MouseButton>> = { 1: 'left', 2: 'middle', 3: 'right' };

/** Keysyms of modifier keys and the modifier each holds. */
const MODIFIER_KEYS: ReadonlyMap<number, Modifier> = new Map([
  [0xffe1, 'shift'], // Shift_L
  [0xffe2, 'shift'], // Shift_R
  [0xffe3, 'control'], // Control_L
  [0xffe4, 'control'], // Control_R
  [0xffe7, 'option'], // Meta_L
  [0xffe8, 'option'], // Meta_R
  [0xffe9, 'option'], // Alt_L
  [0xffea, 'option'], // Alt_R
  [0xffeb, 'super'], // Super_L
  [0xffec, 'super'], // Super_R
]);
/** The core protocol's Lock modifier bit (Caps Lock). */
const LOCK_MASK = 0x2;
const ORDER: readonly Modifier[] = ['command', 'control', 'option', 'shift', 'super', 'fn'];

class Recording {
  /** Modifier keys held, by keycode. */
  private readonly held = new Map<number, Modifier>();
  /** Lock keys held that unlock their lock when released, by keycode. */
  private readonly unlocking = new Map<number, keyof Locks>();
  /** Events are turned into notifications one at a time, in order (a key may need the map read again). */
  private queue: Promise<void> = Promise.resolve();
  private sent = 0;
  private readonly ended: Promise<void>;
  private end: () => void = () => {};
  /** Ends the keeping of what the helper sends (see OwnInput). */
  readonly unlisten: () => void;
  /** EnableContext's request number on the data connection. */
  private sequence = 0;

  constructor(
    private readonly session: Session,
    private readonly control: X11,
    private readonly record: x11.XRecord,
    private readonly data: X11,
    private readonly context: number,
    private keymap: Keymap,
    /** Num Lock and Caps Lock as they stood at the start, then turned by the presses heard. */
    private readonly locks: Locks,
    private readonly own: OwnInput,
    /** Takes back the session's closer of the data connection. */
    private readonly forget: () => void,
  ) {
    this.ended = new Promise((resolve) => (this.end = resolve));
    this.unlisten = own.listen();
  }

  /** Enables the context on the data connection; resolves once the server opened the series of replies. */
  enable(dataRecord: x11.XRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the X server did not start sending recorded input')),
        SERIES_MS,
      );
      dataRecord.EnableContext(
        this.context,
        (reply) => {
          this.forgetReplies();
          if (reply.category === START_OF_DATA) {
            clearTimeout(timer);
            resolve();
          } else if (reply.category === FROM_SERVER) this.heard(reply.data);
        },
        (error) => {
          clearTimeout(timer);
          if (error) reject(error);
          this.end();
        },
      );
      this.sequence = this.data.client.seq_num;
    });
  }

  /**
   * The x11 package keeps every reply of a series until it ends; a recording's series ends only at record.stop,
   * so what it kept is dropped as each reply arrives (this module reads the replies as they come).
   */
  private forgetReplies(): void {
    const kept = this.data.client.replies[this.sequence]?.[3];
    if (Array.isArray(kept)) kept.length = 0;
  }

  private heard(data: Buffer): void {
    for (let at = 0; at + EVENT_SIZE <= data.length; at += EVENT_SIZE) {
      const event = Buffer.from(data.subarray(at, at + EVENT_SIZE));
      this.queue = this.queue.then(() => this.event(event)).catch(() => {});
    }
  }

  private async event(event: Buffer): Promise<void> {
    const type = (event[0] ?? 0) & 0x7f;
    const detail = event[1] ?? 0;
    if (this.own.claims(type, detail)) return;
    const modifiers = ORDER.filter((m) => [...this.held.values()].includes(m));
    const time = Date.now();
    if (type === BUTTON_PRESS || type === BUTTON_RELEASE) {
      const button = BUTTONS[detail];
      if (!button) return; // the wheel: buttons 4 to 7
      const at = { x: event.readInt16LE(20), y: event.readInt16LE(22) };
      this.send({ kind: type === BUTTON_PRESS ? 'buttonDown' : 'buttonUp', button, at, modifiers, time });
      return;
    }
    if (type === KEY_RELEASE) {
      this.held.delete(detail);
      const unlocks = this.unlocking.get(detail);
      if (unlocks) this.locks[unlocks] = false;
      this.unlocking.delete(detail);
      return;
    }
    if (type !== KEY_PRESS) return;
    let [plain, shifted] = this.keymap.levels(detail);
    if (plain === 0) {
      // A key the map lacked when it was read: a tool like xdotool lends keycodes to the characters it types.
      this.keymap = await Keymap.load(this.control, READ_ONLY);
      [plain, shifted] = this.keymap.levels(detail);
    }
    const modifier = MODIFIER_KEYS.get(plain);
    if (modifier) {
      this.held.set(detail, modifier);
      return;
    }
    // As X turns a lock: its key's press locks it; the release of a press made while it was locked unlocks it.
    const lock = LOCK_KEYS.get(plain);
    if (lock) {
      if (this.locks[lock]) this.unlocking.set(detail, lock);
      else this.locks[lock] = true;
      return;
    }
    const key = pressedKey(plain, shifted, modifiers, this.locks);
    this.send({
      kind: 'keyDown',
      code: key.keysym,
      ...(key.text ? { text: key.text } : {}),
      modifiers: key.modifiers,
      time,
    });
  }

  private send(input: RecordedInput): void {
    this.sent++;
    this.session.notify('record.input', input);
  }

  /** Disables the context from the session's connection, waits for the series to end, and frees it all. */
  async stop(): Promise<number> {
    this.record.DisableContext(this.context);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.ended, new Promise((resolve) => (timer = setTimeout(resolve, SERIES_MS)))]);
    clearTimeout(timer);
    this.record.FreeContext(this.context);
    this.forget();
    this.data.close();
    await this.queue;
    this.unlisten();
    return this.sent;
  }
}

const recordings = new WeakMap<Session, Promise<Recording>>();

export async function startRecording(session: Session): Promise<Record<string, never>> {
  let starting = recordings.get(session);
  if (!starting) {
    starting = begin(session);
    recordings.set(session, starting);
    starting.catch(() => recordings.delete(session));
  }
  await starting;
  return {};
}

export async function stopRecording(session: Session): Promise<{ events: number }> {
  const starting = recordings.get(session);
  if (!starting) return { events: 0 };
  recordings.delete(session);
  const recording = await starting.catch(() => undefined);
  return { events: recording ? await recording.stop() : 0 };
}

/** Caps Lock is the Lock modifier; Num Lock is whichever of Mod1-Mod5 holds the key that types Num_Lock. */
async function locksOf(x: X11, keymap: Keymap): Promise<Locks> {
  const [rows, pointer] = await Promise.all([
    x.x<number[][]>((cb) => x.client.GetModifierMapping(cb)),
    x.x<x11.Pointer>((cb) => x.client.QueryPointer(x.root, cb)),
  ]);
  const numLock = rows.findIndex((keycodes) =>
    keycodes.some((k) => k !== 0 && keymap.levels(k)[0] === NUM_LOCK),
  );
  return {
    caps: (pointer.keyMask & LOCK_MASK) !== 0,
    num: numLock >= 0 && (pointer.keyMask & (1 << numLock)) !== 0,
  };
}

const noRecord = (why: string) =>
  new HelperFailure(
    HelperErrorCode.NotAvailable,
    `the X server cannot record input: ${why}`,
    'run an X server with the RECORD extension (Xorg and Xvfb have it unless started with -extension RECORD)',
  );

async function begin(session: Session): Promise<Recording> {
  const control = await session.x11();
  const requireRecord = (x: X11) =>
    x
      .x<x11.XRecord>((cb) => x.client.require('record', cb))
      .catch((error: Error) => {
        throw noRecord(`no RECORD extension (${error.message})`);
      });
  const record = await requireRecord(control);
  const data = await X11.connect(session.env.DISPLAY ?? '');
  const forget = session.onClose(() => data.close());
  try {
    const [dataRecord, keymap] = await Promise.all([requireRecord(data), Keymap.load(control, READ_ONLY)]);
    const locks = await locksOf(control, keymap);
    const context = control.client.AllocID();
    record.CreateContext(
      context,
      0,
      [record.CS.AllClients],
      [{ deviceEvents: { first: KEY_PRESS, last: BUTTON_RELEASE } }],
    );
    await control.sync();
    const recording = new Recording(
      session,
      control,
      record,
      data,
      context,
      keymap,
      locks,
      ownInputOf(control),
      forget,
    );
    await recording.enable(dataRecord).catch((error: Error) => {
      recording.unlisten();
      record.FreeContext(context);
      throw noRecord(error.message);
    });
    return recording;
  } catch (error) {
    forget();
    data.close();
    throw error;
  }
}

/** Whether this X server can record input: its RECORD extension, asked without starting a recording. */
export async function recordingCapability(session: Session): Promise<Capability> {
  try {
    const x = await session.x11();
    const present = await x.x<{ present: boolean }>((cb) => x.client.QueryExtension('RECORD', cb));
    return present.present
      ? { available: true, detail: "recording a person's input through the X RECORD extension" }
      : {
          available: false,
          detail: 'the X server has no RECORD extension, so start_recording cannot hear input',
        };
  } catch (error) {
    // The connection's own words say which display and why (they begin "no X display" when there is none).
    const why = error instanceof Error ? error.message : String(error);
    return { available: false, detail: why.startsWith('no X display') ? why : `no X display: ${why}` };
  }
}
