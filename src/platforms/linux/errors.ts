/** Failures the helper reports: a HelperErrorCode, a message and a hint saying what to do next. */
import { HelperErrorCode } from '../../helper-client/protocol.js';

export class HelperFailure extends Error {
  constructor(
    readonly code: HelperErrorCode,
    message: string,
    readonly hint: string,
    /** Facts for the server beside the hint (`installed`: the names an app launch could take). */
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HelperFailure';
  }
}

/** Typing a cancel stopped part way, with how many characters were typed (the cancel's answer says it). */
export class TypingStopped extends Error {
  constructor(readonly data: { typed: number }) {
    super('typing was cancelled');
    this.name = 'TypingStopped';
  }
}

/** What typing throws: a cancel's stop with how far the text got, any other error as it is. */
export const typingError = (error: unknown, typed: number, signal?: AbortSignal): unknown =>
  signal?.aborted ? new TypingStopped({ typed }) : error;

/** A D-Bus error reply, by its error name. */
export class DBusCallError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'DBusCallError';
  }
}

/** D-Bus errors that mean the object or its app is gone. */
const GONE = new Set([
  'org.freedesktop.DBus.Error.UnknownObject',
  'org.freedesktop.DBus.Error.ServiceUnknown',
  'org.freedesktop.DBus.Error.NameHasNoOwner',
  'org.freedesktop.DBus.Error.NoReply',
  'org.freedesktop.DBus.Error.Disconnected',
]);

export function isGone(error: unknown): boolean {
  return error instanceof DBusCallError && GONE.has(error.type);
}

/** The object does not implement the interface or method asked for. */
export function isUnsupported(error: unknown): boolean {
  return (
    error instanceof DBusCallError &&
    (error.type === 'org.freedesktop.DBus.Error.UnknownMethod' ||
      error.type === 'org.freedesktop.DBus.Error.UnknownInterface' ||
      error.type === 'org.freedesktop.DBus.Error.UnknownProperty' ||
      error.type === 'org.freedesktop.DBus.Error.NotSupported' ||
      error.type === 'org.freedesktop.DBus.Error.InvalidArgs')
  );
}

/** The element is gone: said without its handle, which names nothing an agent or a person knows. */
export function elementGone(): HelperFailure {
  return new HelperFailure(
    HelperErrorCode.ElementGone,
    'the element no longer exists',
    'the element or its app went away; take a new snapshot and use a current handle',
  );
}

/** Turns a D-Bus failure on an element into ElementGone when the element is gone; rethrows anything else. */
export function goneOr(error: unknown): never {
  if (isGone(error)) throw elementGone();
  throw error;
}
