/**
 * Method calls encoded by hand into D-Bus wire format (little-endian). dbus-next's generic marshaller builds an
 * object per written word and copies it all twice; for the thousands of small calls of a walk that was about a
 * third of the helper's CPU. Bodies of basic types, arrays, dicts and structs are encoded here, and only with
 * names that are valid; for anything else (variants, 64-bit integers) `encodeCall` gives undefined and the call
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

/** A body value that does not fit its type, or a type this encoder does not write (variants, 64-bit integers). */
class Unencodable extends Error {}

function integer(value: unknown, min: number, max: number): number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) throw new Unencodable();
  return value as number;
}

function text(value: unknown): string {
  if (typeof value !== 'string' || value.includes('\0')) throw new Unencodable();
  return value;
}

/** Writes a body little-endian; it starts 8-aligned in the message, so alignment within it is the same. */
class BodyWriter {
  private bytes = Buffer.alloc(64);
  private at = 0;

  written(): Buffer {
    return this.bytes.subarray(0, this.at);
  }

  /** Makes room for `more` bytes; new bytes are zero, as padding must be. */
  private room(more: number): void {
    if (this.at + more <= this.bytes.length) return;
    const bigger = Buffer.alloc(Math.max(this.bytes.length * 2, this.at + more));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }

  private pad(to: number): void {
    const next = align(this.at, to);
    this.room(next - this.at);
    this.at = next;
  }

  private string(value: string, lengthBytes: 1 | 4): void {
    const length = Buffer.byteLength(value);
    if (lengthBytes === 1 && length > 255) throw new Unencodable();
    this.room(lengthBytes + length + 1);
    if (lengthBytes === 1) this.bytes[this.at] = length;
    else this.bytes.writeUInt32LE(length, this.at);
    this.at += lengthBytes;
    this.at += this.bytes.write(value, this.at, 'utf8') + 1;
  }

  write(type: Type, value: unknown): void {
    this.pad(ALIGNMENT[type.code] ?? 1);
    const fixed = (size: number, put: (at: number) => void) => {
      this.room(size);
      put(this.at);
      this.at += size;
    };
    switch (type.code) {
      case 'y':
        return fixed(1, (at) => (this.bytes[at] = integer(value, 0, 255)));
      case 'b':
        if (typeof value !== 'boolean') throw new Unencodable();
        return fixed(4, (at) => this.bytes.writeUInt32LE(value ? 1 : 0, at));
      case 'n':
        return fixed(2, (at) => this.bytes.writeInt16LE(integer(value, -0x8000, 0x7fff), at));
      case 'q':
        return fixed(2, (at) => this.bytes.writeUInt16LE(integer(value, 0, 0xffff), at));
      case 'i':
        return fixed(4, (at) => this.bytes.writeInt32LE(integer(value, INT32_MIN, INT32_MAX), at));
      case 'u':
        return fixed(4, (at) => this.bytes.writeUInt32LE(integer(value, 0, UINT32_MAX), at));
      case 'd':
        if (typeof value !== 'number') throw new Unencodable();
        return fixed(8, (at) => this.bytes.writeDoubleLE(value, at));
      case 's':
        return this.string(text(value), 4);
      case 'o':
        if (!OBJECT_PATH.test(text(value))) throw new Unencodable();
        return this.string(value as string, 4);
      case 'g':
        parseSignature(text(value));
        return this.string(value as string, 1);
      case '(': {
        if (!Array.isArray(value) || value.length !== type.children.length) throw new Unencodable();
        type.children.forEach((child, i) => this.write(child, value[i]));
        return;
      }
      case 'a':
        return this.array(type.children[0], value);
      default:
        throw new Unencodable();
    }
  }

  private array(element: Type | undefined, value: unknown): void {
    if (!element) throw new Unencodable();
    this.room(4);
    const lengthAt = this.at;
    this.at += 4;
    this.pad(ALIGNMENT[element.code] ?? 1);
    const start = this.at;
    if (element.code === '{') {
      const [key, item] = element.children;
      if (!key || !item || value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new Unencodable();
      }
      for (const [k, v] of Object.entries(value)) {
        this.pad(8);
        this.write(key, k);
        this.write(item, v);
      }
    } else {
      if (!Array.isArray(value)) throw new Unencodable();
      for (const item of value) this.write(element, item);
    }
    this.bytes.writeUInt32LE(this.at - start, lengthAt);
  }
}

/** The body in wire format, or undefined when it does not fit the signature or holds a type not written here. */
function encodeBody(signature: string, values: readonly unknown[]): Buffer | undefined {
  try {
    const types = parseSignature(signature);
    if (types.length !== values.length) return undefined;
    const writer = new BodyWriter();
    types.forEach((type, i) => writer.write(type, values[i]));
    return writer.written();
  } catch (error) {
    if (error instanceof Unencodable || error instanceof Unreadable) return undefined;
    throw error;
  }
}

/** One message: the method call with `serial`, or undefined when the call is not one this encoder handles. */
export function encodeCall(serial: number, call: MethodCall): Buffer | undefined {
  const signature = call.signature ?? '';
  const body = namesValid(call) ? encodeBody(signature, call.body ?? []) : undefined;
  if (!body) return undefined;

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
  const bodyEnd = bodyStart + body.length;

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
  body.copy(out, bodyStart);
  return out;
}

/** The length in bytes of the message at `at` in `data`, or undefined while its fixed header is incomplete. */
export function messageLength(data: Buffer, at: number): number | undefined {
  if (data.length - at < FIXED_HEADER) return undefined;
  const little = data[at] === LITTLE_ENDIAN;
  const body = little ? data.readUInt32LE(at + 4) : data.readUInt32BE(at + 4);
  const fields = little ? data.readUInt32LE(at + 12) : data.readUInt32BE(at + 12);
  return align(FIXED_HEADER + fields, 8) + body;
}

export const METHOD_RETURN = 2;
export const ERROR = 3;
const HEADER_ERROR_NAME = 4;
const HEADER_REPLY_SERIAL = 5;

export interface ReplyHeader {
  type: typeof METHOD_RETURN | typeof ERROR;
  replySerial: number;
  errorName: string;
  signature: string;
  bodyStart: number;
}

/** Types this decoder reads; 64-bit integers and file descriptors are left to dbus-next. */
interface Type {
  code: string;
  children: Type[];
}

/** A body or header with a type this decoder does not read, or that runs past the message. */
class Unreadable extends Error {}

const ALIGNMENT: Readonly<Record<string, number>> = {
  y: 1,
  g: 1,
  v: 1,
  n: 2,
  q: 2,
  b: 4,
  i: 4,
  u: 4,
  s: 4,
  o: 4,
  a: 4,
  d: 8,
  '(': 8,
  '{': 8,
};

function parseType(signature: string, at: number): [Type, number] {
  const code = signature[at] ?? '';
  if (code === 'a') {
    const [child, next] = parseType(signature, at + 1);
    return [{ code, children: [child] }, next];
  }
  if (code === '(' || code === '{') {
    const close = code === '(' ? ')' : '}';
    const children: Type[] = [];
    let next = at + 1;
    while (signature[next] !== close) {
      if (next >= signature.length) throw new Unreadable(signature);
      const [child, after] = parseType(signature, next);
      children.push(child);
      next = after;
    }
    return [{ code, children }, next + 1];
  }
  if (code.length === 1 && 'ybnqiudsogv'.includes(code)) return [{ code, children: [] }, at + 1];
  throw new Unreadable(signature);
}

const signatures = new Map<string, Type[]>();

function parseSignature(signature: string): Type[] {
  let types = signatures.get(signature);
  if (!types) {
    types = [];
    for (let at = 0; at < signature.length;) {
      const [type, next] = parseType(signature, at);
      types.push(type);
      at = next;
    }
    // Replies come in a handful of signatures; variants could bring any number.
    if (signatures.size < 256) signatures.set(signature, types);
  }
  return types;
}

/** Reads little-endian values, aligned from the start of the message, as plain JavaScript values. */
class Cursor {
  constructor(
    private readonly message: Buffer,
    private at: number,
  ) {}

  private align(to: number): void {
    this.at = align(this.at, to);
    if (this.at > this.message.length) throw new Unreadable('past the end');
  }

  private take(bytes: number): number {
    const at = this.at;
    this.at += bytes;
    if (this.at > this.message.length) throw new Unreadable('past the end');
    return at;
  }

  read(type: Type): unknown {
    const m = this.message;
    this.align(ALIGNMENT[type.code] ?? 1);
    switch (type.code) {
      case 'y':
        return m[this.take(1)];
      case 'b':
        return m.readUInt32LE(this.take(4)) !== 0;
      case 'n':
        return m.readInt16LE(this.take(2));
      case 'q':
        return m.readUInt16LE(this.take(2));
      case 'i':
        return m.readInt32LE(this.take(4));
      case 'u':
        return m.readUInt32LE(this.take(4));
      case 'd':
        return m.readDoubleLE(this.take(8));
      case 's':
      case 'o':
        return this.text(m.readUInt32LE(this.take(4)));
      case 'g':
        return this.text(m[this.take(1)] ?? 0);
      case 'v': {
        const types = parseSignature(this.text(m[this.take(1)] ?? 0));
        if (types.length !== 1 || !types[0]) throw new Unreadable('variant');
        return this.read(types[0]);
      }
      case '(':
        return type.children.map((child) => this.read(child));
      case 'a':
        return this.array(type.children[0], m.readUInt32LE(this.take(4)));
      default:
        throw new Unreadable(type.code);
    }
  }

  private text(length: number): string {
    const at = this.take(length + 1);
    return this.message.toString('utf8', at, at + length);
  }

  private array(element: Type | undefined, length: number): unknown {
    if (!element) throw new Unreadable('array');
    this.align(ALIGNMENT[element.code] ?? 1);
    const end = this.at + length;
    if (element.code === 'y') return Buffer.from(this.message.subarray(this.take(length), end));
    if (element.code === '{') {
      const [key, value] = element.children;
      if (!key || !value) throw new Unreadable('dict entry');
      const dict: Record<string, unknown> = {};
      while (this.at < end) {
        this.align(8);
        dict[String(this.read(key))] = this.read(value);
      }
      return dict;
    }
    const items: unknown[] = [];
    while (this.at < end) items.push(this.read(element));
    return items;
  }
}

/**
 * Calls `onField` with each header field of a little-endian message (its code and value) that `wanted` asks for;
 * the others are skipped without decoding. False when the header is malformed.
 */
function scanFields(
  message: Buffer,
  wanted: (code: number) => boolean,
  onField: (code: number, value: string | number) => void,
): boolean {
  const fieldsEnd = FIXED_HEADER + message.readUInt32LE(12);
  if (message[0] !== LITTLE_ENDIAN || fieldsEnd > message.length) return false;
  // Each field is (code, variant) with a one-letter variant signature.
  let at = FIXED_HEADER;
  while (at < fieldsEnd) {
    at = align(at, 8);
    const code = message[at] ?? 0;
    if (message[at + 1] !== 1 || message[at + 3] !== 0 || at + 5 > fieldsEnd) return false;
    const type = String.fromCharCode(message[at + 2] ?? 0);
    at += 4;
    if (type === 'u') {
      if (at + 4 > fieldsEnd) return false;
      if (wanted(code)) onField(code, message.readUInt32LE(at));
      at += 4;
    } else if (type === 's' || type === 'o' || type === 'g') {
      if (type !== 'g' && at + 4 > fieldsEnd) return false;
      const length = type === 'g' ? (message[at] ?? 0) : message.readUInt32LE(at);
      const start = at + (type === 'g' ? 1 : 4);
      at = start + length + 1;
      if (at > fieldsEnd) return false;
      if (wanted(code)) onField(code, message.toString('utf8', start, start + length));
    } else return false;
  }
  return true;
}

const inReply = (code: number) =>
  code === HEADER_REPLY_SERIAL || code === HEADER_ERROR_NAME || code === HEADER_SIGNATURE;

/** The header of a little-endian METHOD_RETURN or ERROR; undefined for any other message. */
export function replyHeader(message: Buffer): ReplyHeader | undefined {
  const type = message[1];
  if (message[0] !== LITTLE_ENDIAN || (type !== METHOD_RETURN && type !== ERROR)) return undefined;
  const header: ReplyHeader = {
    type,
    replySerial: 0,
    errorName: '',
    signature: '',
    bodyStart: align(FIXED_HEADER + message.readUInt32LE(12), 8),
  };
  // A reply's sender and destination are not needed: they are not decoded.
  const read = scanFields(message, inReply, (code, value) => {
    if (code === HEADER_REPLY_SERIAL && typeof value === 'number') header.replySerial = value;
    else if (code === HEADER_ERROR_NAME && typeof value === 'string') header.errorName = value;
    else if (code === HEADER_SIGNATURE && typeof value === 'string') header.signature = value;
  });
  return read ? header : undefined;
}

/** Every header field of a little-endian message, by code; undefined when it is big-endian or malformed. */
export function headerFields(message: Buffer): Map<number, string | number> | undefined {
  const fields = new Map<number, string | number>();
  return scanFields(
    message,
    () => true,
    (code, value) => fields.set(code, value),
  )
    ? fields
    : undefined;
}

/**
 * The body as plain values (variants unwrapped, structs as arrays, dicts as objects, `ay` as a Buffer), or
 * undefined when it holds a type this decoder does not read.
 */
export function decodeBody(message: Buffer, header: ReplyHeader): unknown[] | undefined {
  try {
    const cursor = new Cursor(message, header.bodyStart);
    return parseSignature(header.signature).map((type) => cursor.read(type));
  } catch (error) {
    if (error instanceof Unreadable || error instanceof RangeError) return undefined;
    throw error;
  }
}
