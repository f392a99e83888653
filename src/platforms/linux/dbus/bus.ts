/**
 * The one adapter around dbus-next: connects to a bus (the accessibility bus for the helper, the session bus for
 * the server's services) and makes raw method calls. Replies come
 * back as plain JavaScript values (variants unwrapped), typed `unknown` for the callers to narrow.
 */
import * as dbus from 'dbus-next';
import { HelperErrorCode } from '../../../helper-client/protocol.js';
import { connectionOf } from './dbus-next-internals.js';
import { type Lane, openLane, plain } from './direct.js';
import { InFlight } from './in-flight.js';
import { Peers } from './peer.js';
import { Unanswering } from './unanswering.js';
import type { MethodCall } from './wire.js';
import { DBusCallError, HelperFailure } from '../errors.js';

/** A method call to an app; the reply's body as plain values. */
export type BusCall = (
  destination: string,
  path: string,
  iface: string,
  member: string,
  signature?: string,
  body?: unknown[],
  /** How long to wait for the reply; an app that is busy or inside a modal loop may never answer. */
  timeoutMs?: number,
) => Promise<unknown[]>;

export interface Bus {
  call: BusCall;
  /**
   * A call that runs the app's own code (an action), as `call` but on a connection to the app of its own where
   * it has one: a modal loop the action runs then blocks no other call (peer.ts).
   */
  act: BusCall;
  /** Builds a variant for Properties.Set. */
  variant(signature: string, value: unknown): unknown;
  /** This connection's unique name on the bus (":1.42"). */
  readonly name: string;
  /**
   * Calls `listener` for each method call to `path` on this connection, and answers the caller with an empty
   * reply. Returns a stop function.
   */
  onMethodCall(path: string, listener: (call: IncomingCall) => void): () => void;
  /** Calls `listener` for every signal this connection receives (AddMatch decides which). Returns a stop function. */
  onSignal(listener: (signal: Signal) => void): () => void;
  /** `listener` hears when the connection ends; never where dbus-next's internals are not as expected. */
  onClose(listener: () => void): void;
  close(): void;
}

/** A method call another program made to this connection. */
export interface IncomingCall {
  /** The unique bus name of the caller. */
  sender: string;
  iface: string;
  member: string;
  body: unknown[];
}

export interface Signal {
  /** The unique bus name of the sender, e.g. ":1.42". */
  sender: string;
  path: string;
  iface: string;
  member: string;
  body: unknown[];
}

/**
 * Longest wait for one call. GTK3 runs a modal dialog's loop inside the handler of the call that opened it and
 * answers nothing else meanwhile; without a limit, one such app would stall every request of the helper.
 */
export const CALL_TIMEOUT_MS = 5000;

/**
 * Calls in flight to one app at once (in-flight.ts). Measured on Chromium's 10,000-row page: a walk of 5,000 of
 * its rows, sent all at once, left calls unanswered past 5 s; 256 at a time keep an app's queue short (under a
 * second at Chromium's pace), and walks of GTK apps as fast as unbounded (within the bench's noise).
 */
const IN_FLIGHT_PER_APP = 256;

const appTimeout = (member: string, ms: number) =>
  new HelperFailure(
    HelperErrorCode.Timeout,
    `the app did not answer within ${ms / 1000} s (asked: ${member})`,
    'it may be busy or hung: wait a moment and retry',
  );

/** The call as dbus-next's own message, for calls that go through dbus-next. */
export function dbusNextMessage(call: MethodCall): dbus.Message {
  const { destination, path, iface, member, signature, body } = call;
  return new dbus.Message({
    destination,
    path,
    interface: iface,
    member,
    ...(signature ? { signature, body: body ?? [] } : {}),
  });
}

async function callThroughDbusNext(
  bus: dbus.MessageBus,
  call: MethodCall,
  timeoutMs: number,
  timeout: () => Error,
): Promise<unknown[]> {
  let reply: dbus.Message | null;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeout()), timeoutMs);
    });
    reply = await Promise.race([bus.call(dbusNextMessage(call)), timedOut]);
  } catch (error) {
    if (error instanceof dbus.DBusError) throw new DBusCallError(error.type, error.text ?? error.message);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return reply ? (plain(reply.body) as unknown[]) : [];
}

const isTimeout = (error: unknown) =>
  error instanceof HelperFailure && error.code === HelperErrorCode.Timeout;

/** A cheap question every AT-SPI app answers, asked of an app that stopped answering. */
const probeCall = (destination: string): MethodCall => ({
  destination,
  path: '/org/a11y/atspi/accessible/root',
  iface: 'org.freedesktop.DBus.Properties',
  member: 'Get',
  signature: 'ss',
  body: ['org.a11y.atspi.Application', 'ToolkitName'],
});

/** `peers`: connect to apps directly, and fail fast on apps that stopped answering (the accessibility bus). */
/** An app as a person knows it (`gtk3-demo (pid 5284)`), from its unique bus name; undefined if unknown. */
export type NameApp = (destination: string) => string | undefined;

function wrap(bus: dbus.MessageBus, lane: Lane | undefined, peers = false, nameApp?: NameApp): Bus {
  bus.on('error', () => {});
  const viaBus = (call: MethodCall, timeoutMs: number, timeout: () => Error) =>
    lane?.send(call, timeoutMs, timeout) ?? callThroughDbusNext(bus, call, timeoutMs, timeout);
  const direct = peers ? new Peers(viaBus) : undefined;
  const inFlight = peers ? new InFlight(IN_FLIGHT_PER_APP) : undefined;
  const timeoutOf = (call: MethodCall, timeoutMs: number) => () => {
    // A shorter limit is the caller's own impatience (listing apps), not proof that the app stopped answering.
    if (timeoutMs >= CALL_TIMEOUT_MS) unanswering?.timedOut(call.destination);
    return appTimeout(call.member, timeoutMs);
  };
  const sendNow = (call: MethodCall, timeoutMs: number): Promise<unknown[]> => {
    const timeout = timeoutOf(call, timeoutMs);
    const resend = () => viaBus(call, timeoutMs, timeout);
    return direct?.lane(call.destination)?.send(call, timeoutMs, timeout, resend) ?? resend();
  };
  // A call that waited its turn is asked again whether its app still answers: behind an app that stopped (a
  // modal dialog's loop), the waiting calls fail at once rather than one time limit per turn. The question that
  // finds out whether it answers again (`probe`) is asked all the same.
  const send = (call: MethodCall, timeoutMs: number, probe = false): Promise<unknown[]> =>
    inFlight
      ? inFlight.run(call.destination, async () => {
          if (!probe) unanswering?.check(call.destination);
          return sendNow(call, timeoutMs);
        })
      : sendNow(call, timeoutMs);
  const unanswering = peers
    ? new Unanswering(
        (destination) => send(probeCall(destination), CALL_TIMEOUT_MS, true),
        isTimeout,
        CALL_TIMEOUT_MS,
        nameApp,
      )
    : undefined;
  return {
    call(destination, path, iface, member, signature, body, timeoutMs = CALL_TIMEOUT_MS) {
      unanswering?.check(destination);
      return send({ destination, path, iface, member, signature, body }, timeoutMs);
    },
    async act(destination, path, iface, member, signature, body, timeoutMs = CALL_TIMEOUT_MS) {
      unanswering?.check(destination);
      const call = { destination, path, iface, member, signature, body };
      return (await direct?.alone(call, timeoutMs, timeoutOf(call, timeoutMs))) ?? send(call, timeoutMs);
    },
    variant: (signature, value) => new dbus.Variant(signature, value),
    get name() {
      // dbus-next sets it once the bus daemon answered Hello; its typings leave it out.
      return (bus as unknown as { name?: string }).name ?? '';
    },
    onMethodCall(path, listener) {
      const handler = (message: dbus.Message): boolean => {
        if (message.path !== path) return false;
        const { sender, interface: iface, member } = message;
        bus.send(dbus.Message.newMethodReturn(message));
        listener({ sender, iface, member, body: plain(message.body) as unknown[] });
        return true;
      };
      bus.addMethodHandler(handler);
      return () => bus.removeMethodHandler(handler);
    },
    onSignal(listener) {
      const onMessage = (message: dbus.Message) => {
        if (message.type !== dbus.MessageType.SIGNAL) return;
        const { sender, path, interface: iface, member } = message;
        listener({ sender, path, iface, member, body: plain(message.body) as unknown[] });
      };
      bus.on('message', onMessage);
      return () => bus.removeListener('message', onMessage);
    },
    onClose: (listener) => connectionOf(bus)?.stream.once('close', listener),
    close: () => {
      unanswering?.close();
      direct?.close();
      bus.disconnect();
    },
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

/**
 * A connection to the bus at `address`. `walks`: the accessibility bus, whose walks make thousands of calls; they
 * get the hand-encoded lane on the socket and direct connections to the apps. A connection for a few calls (the
 * server's session-bus services) needs neither, nor the ping that sets the lane up.
 */
export async function connectBus(
  address: string,
  options: { walks?: boolean; nameApp?: NameApp } = {},
): Promise<Bus> {
  const bus = await connect(address);
  if (!options.walks) return wrap(bus, undefined);
  // Before the lane takes over: a message it cannot hand to dbus-next becomes an 'error' event.
  bus.on('error', () => {});
  return wrap(bus, await openLane(bus).catch(() => undefined), true, options.nameApp);
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

/**
 * Session bus → org.a11y.Bus.GetAddress → a connection to the accessibility bus. `onSessionBus` runs on the
 * session bus connection before it closes (the accessibility switch lives there); `nameApp` names an app in the
 * errors of calls to it.
 */
export async function connectAccessibilityBus(
  env: NodeJS.ProcessEnv,
  onSessionBus?: (session: Bus) => Promise<void>,
  nameApp?: NameApp,
): Promise<Bus> {
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
      const sessionBus = wrap(session, undefined);
      const [found] = await sessionBus.call('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress');
      address = typeof found === 'string' ? found : undefined;
      await onSessionBus?.(sessionBus);
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
    return await connectBus(address, { walks: true, nameApp });
  } catch (error) {
    throw notAvailable(
      `cannot connect to ${address} (${(error as Error).message})`,
      'restart at-spi-bus-launcher',
    );
  }
}
