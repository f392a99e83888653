/** Types for the parts of dbus-next's internals that dbus-next-internals.ts uses (untyped in the package). */
declare module 'dbus-next/lib/message.js' {
  /** A whole message's bytes → dbus-next's raw message (header fields by name, body in its marshaller format). */
  export function unmarshall(message: Buffer): object;
}

declare module 'dbus-next/lib/marshall-compat.js' {
  import type { MessageLike } from 'dbus-next';
  /** dbus-next's raw message → the fields of a Message. */
  export function messageToJsFmt(raw: object): MessageLike;
}

declare module 'dbus-next/lib/handshake.js' {
  import type { Socket } from 'node:net';
  /** The client side of D-Bus authentication on a fresh stream; `done` runs once the binary protocol starts. */
  export default function clientHandshake(
    stream: Socket,
    options: object,
    done: (error: Error | null | undefined) => void,
  ): void;
}
