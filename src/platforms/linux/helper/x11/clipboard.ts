/**
 * The CLIPBOARD selection over X11. A hidden window (never mapped) is both the owner after a write, answering
 * other clients' requests for as long as the helper lives, and the requestor when reading. Large texts go in
 * INCR chunks both ways. Contents are never logged.
 */
import type * as x11 from 'x11';
import { HelperErrorCode, type Result } from '../../../../helper-client/protocol.js';
import { Inbox } from './clipboard-inbox.js';
import type { X11 } from './ewmh.js';
import { HelperFailure } from '../../errors.js';
import type { Session } from '../session.js';

/**
 * Texts larger than this are sent in INCR chunks of this size: below the core protocol's 256 KiB request limit,
 * so no request depends on BIG-REQUESTS, and small enough that one transfer never holds up the connection long.
 */
const INCR_CHUNK_BYTES = 255 * 1024;
const REPLY_TIMEOUT_MS = 3_000;
/** An INCR transfer whose requestor stops taking chunks for this long is abandoned. */
const TRANSFER_IDLE_MS = 10_000;
/** What a read accepts from another owner. */
const MAX_READ_BYTES = 64 * 1024 * 1024;
const INPUT_ONLY = 2;
const PROPERTY_CHANGE = 0x00400000;
const CURRENT_TIME = 0;
const ANY_TYPE = 0;
const NEW_VALUE = 0;
const DELETED = 1;

/** Text targets by preference when reading; the same ones are offered when owning. */
const TEXT_TARGETS = ['UTF8_STRING', 'text/plain;charset=utf-8', 'STRING', 'TEXT'] as const;
/** Targets that say something about the selection rather than offer its contents. */
const META_TARGETS = new Set(['TARGETS', 'MULTIPLE', 'TIMESTAMP', 'SAVE_TARGETS', 'DELETE']);
const ATOM_NAMES = ['CLIPBOARD', 'TARGETS', 'ATOM', 'INCR', 'MACPILOT_CLIPBOARD', ...TEXT_TARGETS] as const;
type AtomName = (typeof ATOM_NAMES)[number];

interface Transfer {
  requestor: number;
  property: number;
  type: number;
  bytes: Buffer;
  offset: number;
  timer: NodeJS.Timeout;
}

interface Converted {
  type: number;
  data: Buffer;
}

const isNotify =
  (window: number, target: number) =>
  (e: x11.SelectionEvent): e is x11.SelectionNotifyEvent =>
    e.name === 'SelectionNotify' && e.requestor === window && e.target === target;

const isNewValue =
  (window: number, property: number) =>
  (e: x11.SelectionEvent): e is x11.PropertyNotifyEvent =>
    e.name === 'PropertyNotify' && e.wid === window && e.atom === property && e.state === NEW_VALUE;

export class Clipboard {
  /** What this helper offers while it owns the selection. */
  private text: string | undefined;
  private readonly inbox = new Inbox();
  private readonly transfers = new Map<string, Transfer>();
  private chain: Promise<unknown> = Promise.resolve();
  private readonly lostListeners = new Set<() => void>();

  private constructor(
    private readonly x: X11,
    private readonly window: number,
    private readonly atoms: Record<AtomName, number>,
  ) {
    x.client.on('event', (event) => this.onEvent(event));
  }

  static async create(x: X11): Promise<Clipboard> {
    const ids = await Promise.all(ATOM_NAMES.map((name) => x.atom(name)));
    const atoms = Object.fromEntries(ATOM_NAMES.map((name, i) => [name, ids[i]])) as Record<AtomName, number>;
    const window = x.client.AllocID();
    x.client.CreateWindow(window, x.root, -10, -10, 1, 1, 0, 0, INPUT_ONLY, 0, {
      eventMask: PROPERTY_CHANGE,
    });
    return new Clipboard(x, window, atoms);
  }

  read(): Promise<Result<'clipboard.read'>> {
    return this.serial(async () => {
      const owner = await this.currentOwner();
      if (owner === 0) return { types: [] };
      if (owner === this.window) {
        return this.text === undefined ? { types: [] } : { text: this.text, types: [...TEXT_TARGETS] };
      }
      const offered = await this.convert(this.atoms.TARGETS);
      const targets = offered ? atomList(offered.data) : [];
      const names = await Promise.all(
        targets.map((atom) => this.x.x<string>((cb) => this.x.client.GetAtomName(atom, cb)).catch(() => '')),
      );
      const types = [...new Set(names.filter((n) => n !== '' && !META_TARGETS.has(n)))];
      // An owner that cannot list its targets may still have text.
      const textTarget = offered
        ? TEXT_TARGETS.find((name) => targets.includes(this.atoms[name]))
        : TEXT_TARGETS[0];
      const text = textTarget && (await this.convert(this.atoms[textTarget]));
      if (!text) return { types };
      const latin1 = text.type === this.atoms.STRING;
      return { text: text.data.toString(latin1 ? 'latin1' : 'utf8'), types };
    });
  }

  write(text: string): Promise<Result<'clipboard.write'>> {
    return this.serial(async () => {
      this.text = text;
      this.x.client.SetSelectionOwner(this.window, this.atoms.CLIPBOARD, CURRENT_TIME);
      if ((await this.currentOwner()) !== this.window) {
        this.text = undefined;
        throw new HelperFailure(
          HelperErrorCode.Failed,
          'another client took the clipboard at the same moment',
          'write again',
        );
      }
      // A SelectionClear from an earlier loss of ownership arrives before this reply and dropped the text.
      this.text = text;
      return {};
    });
  }

  /** The hidden window that owns the clipboard while this helper does. */
  get ownWindow(): number {
    return this.window;
  }

  /** The window that owns the clipboard now (0: none). */
  currentOwner(): Promise<number> {
    return this.x.x<number>((cb) => this.x.client.GetSelectionOwner(this.atoms.CLIPBOARD, cb));
  }

  /** The text this helper offers while it still owns the clipboard; undefined once another owner took it. */
  get held(): string | undefined {
    return this.text;
  }

  /** `listener` hears when another client (or no one) takes the clipboard this helper owned. */
  onLost(listener: () => void): void {
    this.lostListeners.add(listener);
  }

  /** No owner at all: every reader then sees an empty clipboard. */
  clear(): Promise<Result<'clipboard.clear'>> {
    return this.serial(async () => {
      this.text = undefined;
      this.x.client.SetSelectionOwner(0, this.atoms.CLIPBOARD, CURRENT_TIME);
      await this.x.sync();
      return {};
    });
  }

  /** One clipboard exchange at a time: they share the window's property and its events. */
  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => {});
    return next;
  }

  // --- reading from another owner ---

  /** The selection converted to `target`, or undefined when the owner refuses it. */
  private async convert(target: number): Promise<Converted | undefined> {
    const property = this.atoms.MACPILOT_CLIPBOARD;
    this.inbox.clear();
    this.x.client.ConvertSelection(this.window, this.atoms.CLIPBOARD, target, property, CURRENT_TIME);
    const notify = await this.inbox.next(isNotify(this.window, target), REPLY_TIMEOUT_MS, 'answer');
    if (notify.property === 0) return undefined;
    const first = await this.take(property);
    if (first.type !== this.atoms.INCR) return first;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      await this.inbox.next(isNewValue(this.window, property), REPLY_TIMEOUT_MS, 'send the next part');
      const chunk = await this.take(property);
      if (chunk.data.length === 0) return { type: chunk.type, data: Buffer.concat(chunks, total) };
      total += chunk.data.length;
      if (total > MAX_READ_BYTES) {
        throw new HelperFailure(
          HelperErrorCode.Failed,
          `the clipboard holds more than ${MAX_READ_BYTES / 1024 / 1024} MB`,
          'copy a smaller part',
        );
      }
      chunks.push(chunk.data);
    }
  }

  /** Reads and deletes the window's property (deleting it is what asks an INCR owner for the next part). */
  private async take(property: number): Promise<Converted> {
    const prop = await this.x.x<x11.Property>((cb) =>
      this.x.client.GetProperty(1, this.window, property, ANY_TYPE, 0, MAX_READ_BYTES / 4, cb),
    );
    return { type: prop.type, data: prop.data };
  }

  // --- owning ---

  private onEvent(event: x11.SelectionEvent): void {
    switch (event.name) {
      case 'SelectionRequest':
        if (event.owner === this.window) this.answer(event);
        return;
      case 'SelectionClear':
        if (event.owner === this.window && event.selection === this.atoms.CLIPBOARD) {
          this.text = undefined;
          for (const listener of this.lostListeners) listener();
        }
        return;
      case 'SelectionNotify':
        if (event.requestor === this.window) this.inbox.push(event);
        return;
      case 'PropertyNotify':
        if (event.wid === this.window) this.inbox.push(event);
        else if (event.state === DELETED) this.sendNext(transferKey(event.wid, event.atom));
        return;
      default:
        return;
    }
  }

  private answer(request: x11.SelectionRequestEvent): void {
    // Obsolete requestors name no property: the target's name is the property then.
    const property = request.property || request.target;
    const notify = (answered: number) =>
      this.x.client.SendEvent(request.requestor, 0, 0, {
        name: 'SelectionNotify',
        seq: 0,
        time: request.time,
        requestor: request.requestor,
        selection: request.selection,
        target: request.target,
        property: answered,
      });
    const { atoms } = this;
    if (request.selection !== atoms.CLIPBOARD || this.text === undefined) return notify(0);
    if (request.target === atoms.TARGETS) {
      const offered = [atoms.TARGETS, ...TEXT_TARGETS.map((name) => atoms[name])];
      this.x.client.ChangeProperty(0, request.requestor, property, atoms.ATOM, 32, offered);
      return notify(property);
    }
    const textTarget = TEXT_TARGETS.find((name) => atoms[name] === request.target);
    if (!textTarget) return notify(0);
    const latin1 = textTarget === 'STRING';
    const bytes = Buffer.from(this.text, latin1 ? 'latin1' : 'utf8');
    // TEXT lets the owner pick the encoding; the other targets name their own.
    const type = textTarget === 'TEXT' ? atoms.UTF8_STRING : request.target;
    if (bytes.length <= INCR_CHUNK_BYTES) {
      this.x.client.ChangeProperty(0, request.requestor, property, type, 8, bytes);
      return notify(property);
    }
    this.startTransfer(request.requestor, property, type, bytes);
    notify(property);
  }

  /** INCR: announce the size, then send a chunk each time the requestor deletes the property. */
  private startTransfer(requestor: number, property: number, type: number, bytes: Buffer): void {
    const key = transferKey(requestor, property);
    this.endTransfer(key);
    this.x.client.ChangeWindowAttributes(requestor, { eventMask: PROPERTY_CHANGE });
    this.x.client.ChangeProperty(0, requestor, property, this.atoms.INCR, 32, [bytes.length]);
    const timer = setTimeout(() => this.endTransfer(key), TRANSFER_IDLE_MS);
    this.transfers.set(key, { requestor, property, type, bytes, offset: 0, timer });
  }

  private sendNext(key: string): void {
    const transfer = this.transfers.get(key);
    if (!transfer) return;
    const chunk = transfer.bytes.subarray(transfer.offset, transfer.offset + INCR_CHUNK_BYTES);
    transfer.offset += chunk.length;
    this.x.client.ChangeProperty(0, transfer.requestor, transfer.property, transfer.type, 8, chunk);
    // The empty chunk after the last one ends the transfer.
    if (chunk.length === 0) this.endTransfer(key);
    else transfer.timer.refresh();
  }

  private endTransfer(key: string): void {
    const transfer = this.transfers.get(key);
    if (!transfer) return;
    clearTimeout(transfer.timer);
    this.transfers.delete(key);
    const { requestor } = transfer;
    if (![...this.transfers.values()].some((t) => t.requestor === requestor)) {
      this.x.client.ChangeWindowAttributes(requestor, { eventMask: 0 });
    }
  }
}

const transferKey = (window: number, property: number) => `${window}:${property}`;

function atomList(data: Buffer): number[] {
  const atoms: number[] = [];
  for (let i = 0; i + 4 <= data.length; i += 4) atoms.push(data.readUInt32LE(i));
  return atoms;
}

/** One clipboard per X connection, made on first use and kept for the connection's life. */
const clipboards = new WeakMap<X11, Promise<Clipboard>>();

/** The clipboard of the session's X connection, if the session made one; never connects or makes one. */
export async function existingClipboard(session: Session): Promise<Clipboard | undefined> {
  const x = await session.connectedX11();
  return x && clipboards.get(x)?.catch(() => undefined);
}

export async function clipboardOf(session: Session): Promise<Clipboard> {
  const x = await session.x11();
  let clipboard = clipboards.get(x);
  if (!clipboard) {
    clipboard = Clipboard.create(x);
    clipboards.set(x, clipboard);
    clipboard.catch(() => clipboards.delete(x));
  }
  return clipboard;
}
