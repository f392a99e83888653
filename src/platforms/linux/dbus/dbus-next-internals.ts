/**
 * The one module that touches dbus-next's private internals (its connection's socket and events, its message
 * parser, its client handshake), for the D-Bus fast lane (direct.ts) and the direct connections to apps
 * (peer.ts). They are used only with the dbus-next release they were read from; with any other, `usable` is
 * false and every call goes through dbus-next's public API.
 */
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import * as dbus from 'dbus-next';
import clientHandshake from 'dbus-next/lib/handshake.js';
import { messageToJsFmt } from 'dbus-next/lib/marshall-compat.js';
import { unmarshall } from 'dbus-next/lib/message.js';
import { headerFields } from './wire.js';

/** The dbus-next release whose internals this module was written against (package-lock.json pins it). */
const PINNED_VERSION = '0.10.2';

export const usable =
  (createRequire(import.meta.url)('dbus-next/package.json') as { version: string }).version ===
  PINNED_VERSION;

export interface Connection {
  stream: Socket;
  emit(event: 'message' | 'error', value: unknown): boolean;
  on(event: 'message', listener: () => void): unknown;
  removeListener(event: 'message', listener: () => void): unknown;
}

/** The connection under a bus, when its internals are as expected. */
export function connectionOf(bus: dbus.MessageBus): Connection | undefined {
  if (!usable) return undefined;
  const connection = (bus as unknown as { _connection?: Partial<Connection> })._connection;
  const stream = connection?.stream;
  if (!(stream instanceof Socket) || typeof connection?.emit !== 'function') return undefined;
  // File descriptors travel only through dbus-next's own reader and writer.
  if ((stream as Socket & { supportsUnixFd?: boolean }).supportsUnixFd) return undefined;
  return connection as Connection;
}

/** dbus-next's names of the header fields, by code. */
const FIELD_NAMES = [
  '',
  'path',
  'interface',
  'member',
  'errorName',
  'replySerial',
  'destination',
  'sender',
  'signature',
  'unixFd',
];

/**
 * A message as dbus-next's own reader makes it. Its `unmarshall` cannot read a message without a body (no
 * signature), which its reader never asks it to: those are made from their header fields here.
 */
export function parseMessage(message: Buffer): dbus.Message {
  const fields = headerFields(message);
  if (!fields || fields.has(FIELD_NAMES.indexOf('signature'))) {
    return new dbus.Message(messageToJsFmt(unmarshall(message)));
  }
  const raw: Record<string, string | number> = {
    type: message[1] ?? 0,
    flags: message[2] ?? 0,
    serial: message.readUInt32LE(8),
  };
  for (const [code, value] of fields) {
    const name = FIELD_NAMES[code];
    if (name) raw[name] = value;
  }
  return new dbus.Message(messageToJsFmt(raw));
}

/** The client side of D-Bus authentication on a fresh socket; fails at once when the internals are not usable. */
export function handshake(socket: Socket, done: (error: Error | null | undefined) => void): void {
  if (!usable) return done(new Error(`dbus-next is not release ${PINNED_VERSION}`));
  clientHandshake(socket, {}, done);
}
