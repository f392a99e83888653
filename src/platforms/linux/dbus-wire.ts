/**
 * Method calls encoded by hand into D-Bus wire format (little-endian). dbus-next's generic marshaller builds an
 * object per written word and copies it all twice; for the thousands of small calls of a walk that was about a
 * third of the helper's CPU. Only the shapes the walk sends are encoded here — a body of strings and 32-bit
 * integers — and only with names that are valid; for anything else `encodeCall` gives undefined and the call
 * goes through dbus-next.
 */

export interface MethodCall {
  destination: string;
  path: string;
  iface: string;
  member: string;
  signature?: string | undefined;
  body?: unknown[] | undefined;
}

const METHOD_CALL = 1;
const PROTOCOL_VERSION = 1;
const LITTLE_ENDIAN = 0x6c; // 'l'
const HEADER_PATH = 1;
const HEADER_INTERFACE = 2;
const HEADER_MEMBER = 3;
const HEADER_DESTINATION = 6;
const HEADER_SIGNATURE = 8;
const FIXED_HEADER = 16;

// The specification's grammar (what dbus-next's validators check before sending); a message that breaks it
// makes the bus daemon drop the connection.
const OBJECT_PATH = /^\/([A-Za-z0-9_]+(\/[A-Za-z0-9_]+)*)?$/;
const BUS_NAME =
  /^(:[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+|[A-Za-z_-][A-Za-z0-9_-]*(\.[A-Za-z_-][A-Za-z0-9_-]*)+)$/;
const INTERFACE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const MEMBER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_NAME = 255;

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const UINT32_MAX = 0xffffffff;

const align = (offset: number, to: number) => (offset + to - 1) & ~(to - 1);

function bodyFits(signature: string, body: readonly unknown[]): boolean {
  if (signature.length !== body.length) return false;
  for (let i = 0; i < body.length; i++) {
    const value = body[i];
    switch (signature[i]) {
      case 's':
        if (typeof value !== 'string' || value.includes('\0')) return false;
        break;
      case 'i':
        if (!Number.isInteger(value) || (value as number) < INT32_MIN || (value as number) > INT32_MAX)
          return false;
        break;
      case 'u':
        if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > UINT32_MAX) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function namesValid(call: MethodCall): boolean {
  return (
    call.destination.length <= MAX_NAME &&
    call.iface.length <= MAX_NAME &&
    call.member.length <= MAX_NAME &&
    OBJECT_PATH.test(call.path) &&
    BUS_NAME.test(call.destination) &&
    INTERFACE.test(call.iface) &&
    MEMBER.test(call.member)
  );
}

/** One message: the method call with `serial`, or undefined when the call is not one this encoder handles. */
export function encodeCall(serial: number, call: MethodCall): Buffer | undefined {
  const signature = call.signature ?? '';
  const body = call.body ?? [];
  if (!bodyFits(signature, body) || !namesValid(call)) return undefined;

  // Header fields: (code, variant) structs, each 8-aligned; a string-like variant is its one-letter signature
  // and the value. Names are ASCII (checked above), so their length in bytes is their length.
  const fields: Array<[number, string, string]> = [
    [HEADER_PATH, 'o', call.path],
    [HEADER_INTERFACE, 's', call.iface],
    [HEADER_MEMBER, 's', call.member],
    [HEADER_DESTINATION, 's', call.destination],
  ];
  if (signature) fields.push([HEADER_SIGNATURE, 'g', signature]);
  let end = FIXED_HEADER;
  for (const [, type, value] of fields) {
    end = align(end, 8) + 4 + (type === 'g' ? 1 : 4) + value.length + 1;
  }
  const fieldsLength = end - FIXED_HEADER;
  const bodyStart = align(end, 8);
  const strings = body.map((v) => (typeof v === 'string' ? Buffer.byteLength(v) : 0));
  let bodyEnd = bodyStart;
  for (let i = 0; i < body.length; i++) {
    bodyEnd = align(bodyEnd, 4) + 4 + (signature[i] === 's' ? (strings[i] ?? 0) + 1 : 0);
  }

  const out = Buffer.allocUnsafe(bodyEnd).fill(0);
  out[0] = LITTLE_ENDIAN;
  out[1] = METHOD_CALL;
  out[3] = PROTOCOL_VERSION;
  out.writeUInt32LE(bodyEnd - bodyStart, 4);
  out.writeUInt32LE(serial, 8);
  out.writeUInt32LE(fieldsLength, 12);
  let at = FIXED_HEADER;
  for (const [code, type, value] of fields) {
    at = align(at, 8);
    out[at] = code;
    out[at + 1] = 1;
    out[at + 2] = type.charCodeAt(0);
    at += 4;
    if (type === 'g') out[at++] = value.length;
    else {
      out.writeUInt32LE(value.length, at);
      at += 4;
    }
    at += out.write(value, at, 'latin1') + 1;
  }
  at = bodyStart;
  for (let i = 0; i < body.length; i++) {
    at = align(at, 4);
    const value = body[i];
    if (typeof value === 'string') {
      const length = strings[i] ?? 0;
      out.writeUInt32LE(length, at);
      at += 4 + out.write(value, at + 4, 'utf8') + 1;
    } else if (signature[i] === 'i') {
      out.writeInt32LE(value as number, at);
      at += 4;
    } else {
      out.writeUInt32LE(value as number, at);
      at += 4;
    }
  }
  return out;
}
