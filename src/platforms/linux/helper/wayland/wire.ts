/**
 * The Wayland wire protocol, as much of it as a client needs that sends no file descriptors: the registry, binding
 * globals, requests with integer, fixed and object arguments, and a round trip (wl_display.sync) after which the
 * compositor has handled every request sent before it. Node cannot pass descriptors over a socket, so protocols
 * that need them (a virtual keyboard's keymap, screencopy's shared memory) are left to packaged tools.
 */
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';

const DISPLAY_ID = 1;
/** wl_display requests and events. */
const SYNC = 0;
const GET_REGISTRY = 1;
const DISPLAY_ERROR = 0;
const DELETE_ID = 1;
/** wl_registry: bind request, global and global_remove events. */
const BIND = 0;
const GLOBAL = 0;
/** wl_callback: done. */
const DONE = 0;

export interface Global {
  name: number;
  interface: string;
  version: number;
}

/** One argument of a request: an unsigned or signed integer, a 24.8 fixed-point number, or an object id. */
export type Arg = { u: number } | { i: number } | { fixed: number } | { object: number };

function encodeString(text: string): Buffer {
  const bytes = Buffer.from(`${text}\0`, 'utf8');
  const padded = Buffer.alloc(4 + Math.ceil(bytes.length / 4) * 4);
  padded.writeUInt32LE(bytes.length, 0);
  bytes.copy(padded, 4);
  return padded;
}

function readString(body: Buffer, at: number): [string, number] {
  const length = body.readUInt32LE(at);
  const text = body.toString('utf8', at + 4, at + 4 + Math.max(0, length - 1));
  return [text, at + 4 + Math.ceil(length / 4) * 4];
}

export class WaylandConnection {
  private nextId = 2;
  private buffered = Buffer.alloc(0);
  private readonly callbacks = new Map<number, () => void>();
  private registry = 0;
  readonly globals: Global[] = [];
  private failure: Error | undefined;
  private readonly closeListeners = new Set<(error: Error) => void>();

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    const closed = (error?: Error) =>
      this.fail(error ?? new Error('the Wayland compositor closed the connection'));
    socket.on('error', closed);
    socket.on('close', () => closed());
  }

  /** Connects to the compositor WAYLAND_DISPLAY names and reads its globals. */
  static async open(env: NodeJS.ProcessEnv): Promise<WaylandConnection> {
    const display = env.WAYLAND_DISPLAY ?? 'wayland-0';
    const path = display.startsWith('/') ? display : join(env.XDG_RUNTIME_DIR ?? '/run/user/0', display);
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(path, () => resolve(s));
      s.once('error', reject);
    });
    const wayland = new WaylandConnection(socket);
    wayland.registry = wayland.newId();
    wayland.send(DISPLAY_ID, GET_REGISTRY, [{ u: wayland.registry }]);
    await wayland.roundTrip();
    return wayland;
  }

  onClose(listener: (error: Error) => void): void {
    this.closeListeners.add(listener);
  }

  newId(): number {
    return this.nextId++;
  }

  global(name: string): Global | undefined {
    return this.globals.find((g) => g.interface === name);
  }

  /** Binds a global at the highest version both sides know; returns the new object's id. */
  bind(global: Global, version: number): number {
    const id = this.newId();
    const body = Buffer.concat([
      u32(global.name),
      encodeString(global.interface),
      u32(Math.min(version, global.version)),
      u32(id),
    ]);
    this.write(this.registry, BIND, body);
    return id;
  }

  send(object: number, opcode: number, args: readonly Arg[]): void {
    this.write(object, opcode, Buffer.concat(args.map(encodeArg)));
  }

  /** Resolves once the compositor has handled every request sent so far. */
  roundTrip(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const callback = this.newId();
    return new Promise((resolve, reject) => {
      const onClose = (error: Error) => reject(error);
      this.closeListeners.add(onClose);
      this.callbacks.set(callback, () => {
        this.closeListeners.delete(onClose);
        resolve();
      });
      this.send(DISPLAY_ID, SYNC, [{ u: callback }]);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private write(object: number, opcode: number, body: Buffer): void {
    if (this.failure) throw this.failure;
    const header = Buffer.alloc(8);
    header.writeUInt32LE(object, 0);
    header.writeUInt32LE(((8 + body.length) << 16) | opcode, 4);
    this.socket.write(Buffer.concat([header, body]));
  }

  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 8) {
      const size = this.buffered.readUInt32LE(4) >>> 16;
      if (size < 8 || this.buffered.length < size) return;
      const object = this.buffered.readUInt32LE(0);
      const opcode = this.buffered.readUInt32LE(4) & 0xffff;
      const body = this.buffered.subarray(8, size);
      this.buffered = this.buffered.subarray(size);
      this.dispatch(object, opcode, body);
    }
  }

  private dispatch(object: number, opcode: number, body: Buffer): void {
    if (object === DISPLAY_ID && opcode === DISPLAY_ERROR) {
      const [message] = readString(body, 8);
      this.fail(
        new Error(`the Wayland compositor refused a request: ${message} (code ${body.readUInt32LE(4)})`),
      );
    } else if (object === DISPLAY_ID && opcode === DELETE_ID) {
      // Ids are never reused here: nothing to free.
    } else if (object === this.registry && opcode === GLOBAL) {
      const [name, next] = [body.readUInt32LE(0), 4];
      const [iface, after] = readString(body, next);
      this.globals.push({ name, interface: iface, version: body.readUInt32LE(after) });
    } else if (opcode === DONE && this.callbacks.has(object)) {
      const done = this.callbacks.get(object);
      this.callbacks.delete(object);
      done?.();
    }
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.socket.destroy();
    for (const listener of this.closeListeners) listener(error);
  }
}

const u32 = (value: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value >>> 0, 0);
  return b;
};

function encodeArg(arg: Arg): Buffer {
  const b = Buffer.alloc(4);
  if ('u' in arg) b.writeUInt32LE(arg.u >>> 0, 0);
  else if ('i' in arg) b.writeInt32LE(arg.i, 0);
  else if ('fixed' in arg) b.writeInt32LE(Math.round(arg.fixed * 256), 0);
  else b.writeUInt32LE(arg.object, 0);
  return b;
}
