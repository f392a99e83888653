/**
 * The one adapter around dbus-next: connects to a bus (the accessibility bus for the helper, the session bus for
 * the server's services) and makes raw method calls. Replies come
 * back as plain JavaScript values (variants unwrapped), typed `unknown` for the callers to narrow.
 */
import { Socket } from 'node:net';
import * as dbus from 'dbus-next';
import { HelperErrorCode } from '../../helper/protocol.js';
import { encodeCall, type MethodCall } from './dbus-wire.js';
import { DBusCallError, HelperFailure } from './errors.js';

export interface Bus {
  call(
    destination: string,
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: unknown[],
    /** How long to wait for the reply; an app that is busy or inside a modal loop may never answer. */
    timeoutMs?: number,
  ): Promise<unknown[]>;
  /** Builds a variant for Properties.Set. */
  variant(signature: string, value: unknown): unknown;
  /** Calls `listener` for every signal this connection receives (AddMatch decides which). Returns a stop function. */
  onSignal(listener: (signal: Signal) => void): () => void;
  close(): void;
}

export interface Signal {
  /** The unique bus name of the sender, e.g. ":1.42". */
  sender: string;
  path: string;
  iface: string;
  member: string;
  body: unknown[];
}

/** dbus-next replies with Variants and class instances; callers get plain values to narrow. */
function plain(value: unknown): unknown {
  if (value instanceof dbus.Variant) return plain(value.value);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plain(v);
    return out;
  }
  return value;
}

/**
 * Longest wait for one call. GTK3 runs a modal dialog's loop inside the handler of the call that opened it and
 * answers nothing else meanwhile; without a limit, one such app would stall every request of the helper.
 */
export const CALL_TIMEOUT_MS = 5000;

const appTimeout = (member: string, ms: number) =>
  new HelperFailure(
    HelperErrorCode.Timeout,
    `the app did not answer ${member} within ${ms} ms`,
    'it may be busy or showing a modal dialog (which blocks its accessibility until closed): close the dialog with press_key escape or a click, or wait and retry',
  );

function sendGeneric(bus: dbus.MessageBus, call: MethodCall): Promise<dbus.Message | null> {
  const { destination, path, iface, member, signature, body } = call;
  return bus.call(
    new dbus.Message({
      destination,
      path,
      interface: iface,
      member,
      ...(signature ? { signature, body: body ?? [] } : {}),
    }),
  );
}

/** What sending a hand-encoded call needs of dbus-next's internals: its socket and its table of reply handlers. */
interface Direct {
  socket: Socket;
  replies: Record<number, (reply: dbus.Message) => void>;
}

/** Undefined when a dbus-next version lays its internals out differently (every call then goes through it). */
function directOf(bus: dbus.MessageBus): Direct | undefined {
  const raw = bus as unknown as { _connection?: { stream?: unknown }; _methodReturnHandlers?: unknown };
  const socket = raw._connection?.stream;
  const replies = raw._methodReturnHandlers;
  if (!(socket instanceof Socket) || replies === null || typeof replies !== 'object') return undefined;
  return { socket, replies: replies as Direct['replies'] };
}

/** Sends a call dbus-wire can encode (replies still come back through dbus-next); undefined for any other. */
function sendDirect(
  direct: Direct,
  bus: dbus.MessageBus,
  call: MethodCall,
): Promise<dbus.Message> | undefined {
  // File descriptors travel only through dbus-next's own writer.
  if ((direct.socket as Socket & { supportsUnixFd?: boolean }).supportsUnixFd) return undefined;
  const serial = bus.newSerial();
  const message = encodeCall(serial, call);
  if (!message) return undefined;
  if (!direct.socket.writable) throw new Error('Cannot send message, stream is closed');
  return new Promise((resolve, reject) => {
    direct.replies[serial] = (reply) => {
      if (reply.type === dbus.MessageType.ERROR) {
        const [text] = reply.body as unknown[];
        reject(new DBusCallError(reply.errorName ?? '', typeof text === 'string' ? text : ''));
      } else resolve(reply);
    };
    direct.socket.write(message);
  });
}

function wrap(bus: dbus.MessageBus): Bus {
  bus.on('error', () => {});
  const direct = directOf(bus);
  return {
    async call(destination, path, iface, member, signature, body, timeoutMs = CALL_TIMEOUT_MS) {
      let reply: dbus.Message | null;
      let timer: NodeJS.Timeout | undefined;
      try {
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(appTimeout(member, timeoutMs)), timeoutMs);
        });
        const call = { destination, path, iface, member, signature, body };
        reply = await Promise.race([
          (direct && sendDirect(direct, bus, call)) ?? sendGeneric(bus, call),
          timedOut,
        ]);
      } catch (error) {
        if (error instanceof dbus.DBusError) throw new DBusCallError(error.type, error.text ?? error.message);
        throw error;
      } finally {
        clearTimeout(timer);
      }
      return reply ? (plain(reply.body) as unknown[]) : [];
    },
    variant: (signature, value) => new dbus.Variant(signature, value),
    onSignal(listener) {
      const onMessage = (message: dbus.Message) => {
        if (message.type !== dbus.MessageType.SIGNAL) return;
        const { sender, path, interface: iface, member } = message;
        listener({ sender, path, iface, member, body: plain(message.body) as unknown[] });
      };
      bus.on('message', onMessage);
      return () => bus.removeListener('message', onMessage);
    },
    close: () => bus.disconnect(),
  };
}

function connect(address: string): Promise<dbus.MessageBus> {
  return new Promise((resolve, reject) => {
    const bus = dbus.sessionBus({ busAddress: address });
    const onError = (error: Error) => reject(error);
    bus.once('error', onError);
    bus.once('connect', () => {
      bus.removeListener('error', onError);
      resolve(bus);
    });
  });
}

/** A connection to the bus at `address`. */
export async function connectBus(address: string): Promise<Bus> {
  return wrap(await connect(address));
}

/** The process id behind a bus name, from the bus daemon. */
export async function pidOf(bus: Pick<Bus, 'call'>, busName: string): Promise<number> {
  const [pid] = await bus.call(
    'org.freedesktop.DBus',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus',
    'GetConnectionUnixProcessID',
    's',
    [busName],
  );
  return typeof pid === 'number' ? pid : Number(pid ?? 0);
}

const notAvailable = (why: string, hint: string) =>
  new HelperFailure(HelperErrorCode.NotAvailable, `the accessibility bus is not reachable: ${why}`, hint);

/** Session bus → org.a11y.Bus.GetAddress → a connection to the accessibility bus. */
export async function connectAccessibilityBus(env: NodeJS.ProcessEnv): Promise<Bus> {
  const sessionAddress = env.DBUS_SESSION_BUS_ADDRESS;
  if (!sessionAddress) {
    throw notAvailable(
      'no session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
      'run macpilot inside a desktop session, or start one with dbus-run-session',
    );
  }
  const direct = env.AT_SPI_BUS_ADDRESS;
  let address = direct;
  if (!address) {
    let session: dbus.MessageBus;
    try {
      session = await connect(sessionAddress);
    } catch (error) {
      throw notAvailable(
        `cannot connect to the session bus (${(error as Error).message})`,
        'check DBUS_SESSION_BUS_ADDRESS',
      );
    }
    try {
      const [found] = await wrap(session).call('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress');
      address = typeof found === 'string' ? found : undefined;
    } catch (error) {
      throw notAvailable(
        `org.a11y.Bus did not answer (${(error as Error).message})`,
        'install at-spi2-core and make sure at-spi-bus-launcher runs in this session',
      );
    } finally {
      session.disconnect();
    }
  }
  if (!address) throw notAvailable('org.a11y.Bus gave no address', 'restart at-spi-bus-launcher');
  try {
    return await connectBus(address);
  } catch (error) {
    throw notAvailable(
      `cannot connect to ${address} (${(error as Error).message})`,
      'restart at-spi-bus-launcher',
    );
  }
}
