/**
 * A fast lane beside dbus-next on one connection: calls that dbus-wire can encode are written straight to the
 * socket, and their replies are read straight off it and decoded by dbus-wire; every other message (signals,
 * replies to calls dbus-next made, calls to us) is handed to dbus-next as its own reader would. For the
 * thousands of small calls of a walk, dbus-next's generic marshalling and parsing were most of the helper's CPU.
 *
 * The lane reads the socket in dbus-next's place, so it must take over between two messages: it does so from a
 * 'message' event (dbus-next's reader has just finished a message) when nothing else is buffered. Where
 * dbus-next's internals are not as expected, there is no lane and every call goes through dbus-next.
 */
import { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import * as dbus from 'dbus-next';
import { messageToJsFmt } from 'dbus-next/lib/marshall-compat.js';
import { unmarshall } from 'dbus-next/lib/message.js';
import { decodeBody, encodeCall, ERROR, messageLength, type MethodCall, replyHeader } from './dbus-wire.js';
import { DBusCallError } from './errors.js';

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

interface Connection {
  stream: Socket;
  emit(event: 'message' | 'error', value: unknown): boolean;
  on(event: 'message', listener: () => void): unknown;
  removeListener(event: 'message', listener: () => void): unknown;
}

function connectionOf(bus: dbus.MessageBus): Connection | undefined {
  const connection = (bus as unknown as { _connection?: Partial<Connection> })._connection;
  const stream = connection?.stream;
  if (!(stream instanceof Socket) || typeof connection?.emit !== 'function') return undefined;
  // File descriptors travel only through dbus-next's own reader and writer.
  if ((stream as Socket & { supportsUnixFd?: boolean }).supportsUnixFd) return undefined;
  return connection as Connection;
}

interface Waiting {
  resolve(body: unknown[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const NO_BYTES = Buffer.alloc(0);
/** Pings sent to find a moment between two messages; the first nearly always finds one. */
const TAKEOVER_TRIES = 5;
const PING_WAIT_MS = 2000;

export class DirectLane {
  private readonly waiting = new Map<number, Waiting>();
  private unread: Buffer = NO_BYTES;
  /** Whether the lane reads the socket (and so may send). */
  private active = false;

  private constructor(
    private readonly bus: dbus.MessageBus,
    private readonly connection: Connection,
  ) {}

  /** The lane on `bus`, or undefined when dbus-next's reader cannot be taken over. */
  static async open(bus: dbus.MessageBus): Promise<DirectLane | undefined> {
    const connection = connectionOf(bus);
    if (!connection || connection.stream.listenerCount('readable') !== 1) return undefined;
    const lane = new DirectLane(bus, connection);
    for (let i = 0; i < TAKEOVER_TRIES && !lane.active; i++) {
      const onMessage = () => lane.takeOver();
      connection.on('message', onMessage);
      const ping = new dbus.Message({
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus.Peer',
        member: 'Ping',
      });
      // Any answer, an error too, is a moment between two messages; a daemon that gives none gets no lane.
      await Promise.race([bus.call(ping).catch(() => {}), sleep(PING_WAIT_MS, undefined, { ref: false })]);
      connection.removeListener('message', onMessage);
    }
    return lane.active ? lane : undefined;
  }

  /** Runs inside dbus-next's reader, right after it finished a message. */
  private takeOver(): void {
    const socket = this.connection.stream;
    const readers = socket.listeners('readable');
    // Bytes already buffered would be the start of a message dbus-next's reader is in the middle of.
    if (this.active || socket.readableLength > 0 || readers.length !== 1) return;
    socket.on('readable', this.onReadable);
    socket.removeListener('readable', readers[0] as () => void);
    this.active = true;
  }

  /**
   * Sends the call if dbus-wire can encode it, and resolves with the reply's body as plain values; undefined
   * (nothing sent) for any other call. `timeout` makes the error a call that gets no reply in time fails with.
   */
  send(call: MethodCall, timeoutMs: number, timeout: () => Error): Promise<unknown[]> | undefined {
    const serial = this.bus.newSerial();
    const message = encodeCall(serial, call);
    if (!message) return undefined;
    const socket = this.connection.stream;
    if (!socket.writable) throw new Error('Cannot send message, stream is closed');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(serial);
        reject(timeout());
      }, timeoutMs);
      this.waiting.set(serial, { resolve, reject, timer });
      socket.write(message);
    });
  }

  private readonly onReadable = (): void => {
    const socket = this.connection.stream;
    for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
      this.unread = this.unread.length > 0 ? Buffer.concat([this.unread, chunk]) : chunk;
    }
    let at = 0;
    for (;;) {
      const length = messageLength(this.unread, at);
      if (length === undefined || this.unread.length - at < length) break;
      this.dispatch(this.unread.subarray(at, at + length));
      at += length;
    }
    this.unread = at === this.unread.length ? NO_BYTES : this.unread.subarray(at);
  };

  private dispatch(message: Buffer): void {
    const header = replyHeader(message);
    const waiting = header && this.waiting.get(header.replySerial);
    const body = waiting && decodeBody(message, header);
    if (header && body) return this.settle(header.replySerial, header.type === ERROR, header.errorName, body);
    // Anything else, and the rare reply of ours dbus-wire does not read (big-endian, 64-bit integers).
    const parsed = this.parse(message);
    if (!parsed) return;
    const isReply = parsed.type === dbus.MessageType.METHOD_RETURN || parsed.type === dbus.MessageType.ERROR;
    // dbus-next's typings call the reply serial a string; it is the number from the wire.
    const serial = Number(parsed.replySerial);
    if (isReply && this.waiting.has(serial)) {
      const isError = parsed.type === dbus.MessageType.ERROR;
      this.settle(serial, isError, parsed.errorName ?? '', plain(parsed.body) as unknown[]);
    } else this.connection.emit('message', parsed);
  }

  private settle(serial: number, isError: boolean, errorName: string, body: unknown[]): void {
    const waiting = this.waiting.get(serial);
    if (!waiting) return;
    this.waiting.delete(serial);
    clearTimeout(waiting.timer);
    if (!isError) return waiting.resolve(body);
    const [text] = body;
    waiting.reject(new DBusCallError(errorName, typeof text === 'string' ? text : ''));
  }

  /** The message as dbus-next's reader makes it (undefined and an error event when it cannot). */
  private parse(message: Buffer): dbus.Message | undefined {
    try {
      return new dbus.Message(messageToJsFmt(unmarshall(message)));
    } catch (error) {
      this.connection.emit('error', error);
      return undefined;
    }
  }
}
