/**
 * A fast lane for method calls: calls that dbus-wire can encode are written straight to a socket, and their
 * replies are read straight off it and decoded by dbus-wire. For the thousands of small calls of a walk,
 * dbus-next's generic marshalling and parsing were most of the helper's CPU.
 *
 * On a dbus-next connection (openLane) every other message (signals, replies to calls dbus-next made, calls to
 * us) is handed to dbus-next as its own reader would. The lane reads the socket in dbus-next's place, so it must
 * take over between two messages: it does so from a 'message' event (dbus-next's reader has just finished a
 * message) when nothing else is buffered. Where dbus-next's internals are not as expected, there is no lane and
 * every call goes through dbus-next.
 */
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import * as dbus from 'dbus-next';
import { connectionOf, parseMessage } from './dbus-next-internals.js';
import { decodeBody, encodeCall, ERROR, messageLength, type MethodCall, replyHeader } from './wire.js';
import { DBusCallError } from '../errors.js';

/** dbus-next replies with Variants and class instances; callers get plain values to narrow. */
export function plain(value: unknown): unknown {
  if (value instanceof dbus.Variant) return plain(value.value);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plain(v);
    return out;
  }
  return value;
}

interface Waiting {
  resolve(body: unknown[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  /** Sends the call another way, should this lane close before its reply. */
  resend: (() => Promise<unknown[]>) | undefined;
}

const NO_BYTES = Buffer.alloc(0);
/** Pings sent to find a moment between two messages; the first nearly always finds one. */
const TAKEOVER_TRIES = 5;
const PING_WAIT_MS = 2000;

/** The body of a reply wire.ts does not read (big-endian, 64-bit integers), as dbus-next reads it. */
function parsedBody(message: Buffer): unknown[] {
  return plain(parseMessage(message).body) as unknown[];
}

/**
 * Calls written straight to a socket and their replies read straight off it. `onOther` hears every message that
 * is no reply to one of the lane's calls.
 */
export class Lane {
  private readonly waiting = new Map<number, Waiting>();
  private unread: Buffer = NO_BYTES;

  constructor(
    private readonly socket: Socket,
    private readonly newSerial: () => number,
    private readonly onOther: (message: Buffer) => void,
  ) {}

  /**
   * Sends the call if dbus-wire can encode it, and resolves with the reply's body as plain values; undefined
   * (nothing sent) for any other call. `timeout` makes the error a call that gets no reply in time fails with;
   * `resend`, if given, sends the call another way should the lane close first.
   */
  send(
    call: MethodCall,
    timeoutMs: number,
    timeout: () => Error,
    resend?: () => Promise<unknown[]>,
  ): Promise<unknown[]> | undefined {
    const serial = this.newSerial();
    const message = encodeCall(serial, call);
    if (!message) return undefined;
    if (!this.socket.writable) return resend?.() ?? Promise.reject(new Error('the D-Bus socket is closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(serial);
        reject(timeout());
      }, timeoutMs);
      this.waiting.set(serial, { resolve, reject, timer, resend });
      this.socket.write(message);
    });
  }

  /** Ends the connection (calls still waiting are sent again their other way). */
  close(): void {
    this.socket.destroy();
  }

  /** Bytes read from the socket. */
  receive(chunk: Buffer): void {
    this.unread = this.unread.length > 0 ? Buffer.concat([this.unread, chunk]) : chunk;
    let at = 0;
    for (;;) {
      const length = messageLength(this.unread, at);
      if (length === undefined || this.unread.length - at < length) break;
      this.dispatch(this.unread.subarray(at, at + length));
      at += length;
    }
    this.unread = at === this.unread.length ? NO_BYTES : this.unread.subarray(at);
  }

  /** The socket closed: calls still waiting are sent again their other way, or wait for their time limit. */
  closed(): void {
    for (const [serial, waiting] of this.waiting) {
      if (!waiting.resend) continue;
      this.waiting.delete(serial);
      clearTimeout(waiting.timer);
      waiting.resend().then(waiting.resolve, waiting.reject);
    }
  }

  private dispatch(message: Buffer): void {
    const header = replyHeader(message);
    const waiting = header && this.waiting.get(header.replySerial);
    if (!header || !waiting) return this.onOther(message);
    this.waiting.delete(header.replySerial);
    clearTimeout(waiting.timer);
    let body: unknown[] | undefined;
    try {
      body = decodeBody(message, header) ?? parsedBody(message);
    } catch (error) {
      return waiting.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (header.type !== ERROR) return waiting.resolve(body);
    const [text] = body;
    waiting.reject(new DBusCallError(header.errorName, typeof text === 'string' ? text : ''));
  }
}

/**
 * The lane on a dbus-next connection, or undefined when its reader cannot be taken over. Messages that are no
 * replies to the lane's calls go to dbus-next as its own reader would hand them over.
 */
export async function openLane(bus: dbus.MessageBus): Promise<Lane | undefined> {
  const connection = connectionOf(bus);
  if (!connection || connection.stream.listenerCount('readable') !== 1) return undefined;
  const socket = connection.stream;
  const lane = new Lane(
    socket,
    () => bus.newSerial(),
    (message) => {
      let parsed: dbus.Message;
      try {
        parsed = parseMessage(message);
      } catch (error) {
        connection.emit('error', error);
        return;
      }
      connection.emit('message', parsed);
    },
  );
  let active = false;
  // Runs inside dbus-next's reader, right after it finished a message; bytes already buffered would be the
  // start of a message that reader is in the middle of.
  const takeOver = () => {
    const readers = socket.listeners('readable');
    if (active || socket.readableLength > 0 || readers.length !== 1) return;
    socket.on('readable', () => {
      for (
        let chunk = socket.read() as Buffer | null;
        chunk !== null;
        chunk = socket.read() as Buffer | null
      ) {
        lane.receive(chunk);
      }
    });
    socket.removeListener('readable', readers[0] as () => void);
    active = true;
  };
  for (let i = 0; i < TAKEOVER_TRIES && !active; i++) {
    connection.on('message', takeOver);
    const ping = new dbus.Message({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus.Peer',
      member: 'Ping',
    });
    // Any answer, an error too, is a moment between two messages; a daemon that gives none gets no lane.
    await Promise.race([bus.call(ping).catch(() => {}), sleep(PING_WAIT_MS, undefined, { ref: false })]);
    connection.removeListener('message', takeOver);
  }
  return active ? lane : undefined;
}
