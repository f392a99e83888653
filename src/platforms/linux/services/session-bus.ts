/**
 * Method calls on the user's session D-Bus for the server's own services (notifications, the file manager),
 * through the Linux helper's D-Bus adapter. One connection per use, closed afterwards: these calls are rare, and
 * an open socket would keep the server alive after its client has gone. The adapter (and dbus-next with it) loads
 * on first use, not at the server's start.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { MacpilotError } from '../../../errors.js';
import { HelperErrorCode } from '../../../helper-client/protocol.js';
import type { Bus } from '../dbus/bus.js';
import { HelperFailure } from '../errors.js';

export type SessionBus = Pick<Bus, 'call' | 'variant'>;

/** Longest wait for one reply; D-Bus activation may start the service first. */
const CALL_TIMEOUT_MS = 10_000;

const busDown = (what: string, why: string) =>
  new MacpilotError({
    what,
    why,
    next: 'run macpilot inside the desktop session (it needs DBUS_SESSION_BUS_ADDRESS of that session), or start one with dbus-run-session',
    kind: 'session_bus_unreachable',
  });

/**
 * Connects to the session bus in `env`, runs `use`, and disconnects. D-Bus error replies reach `use`'s caller as
 * DBusCallError (by error name); `what` names the action in the errors this layer raises itself.
 */
export async function withSessionBus<T>(
  env: NodeJS.ProcessEnv,
  what: string,
  use: (bus: SessionBus) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) throw busDown(what, 'there is no session bus: DBUS_SESSION_BUS_ADDRESS is not set');
  const { connectBus } = await import('../dbus/bus.js');
  let connection: Bus;
  try {
    connection = await connectBus(address);
  } catch (error) {
    throw busDown(what, `cannot use the session bus at ${address} (${(error as Error).message})`);
  }
  let stopListening = () => {};
  const aborted = new Promise<never>((_, reject) => {
    if (signal?.aborted) reject(signal.reason);
    const onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    stopListening = () => signal?.removeEventListener('abort', onAbort);
  });
  aborted.catch(() => {});

  const bus: SessionBus = {
    async call(destination, path, iface, member, signature, body) {
      try {
        return await Promise.race([
          connection.call(destination, path, iface, member, signature, body, CALL_TIMEOUT_MS),
          aborted,
        ]);
      } catch (error) {
        if (error instanceof HelperFailure && error.code === HelperErrorCode.Timeout) {
          throw new MacpilotError({
            what,
            why: `no reply to ${member} within ${CALL_TIMEOUT_MS / 1000} s`,
            next: 'the service may be hung: restart it, then retry',
            kind: 'dbus_call_timed_out',
          });
        }
        throw error;
      }
    },
    variant: (sig, value) => connection.variant(sig, value),
  };
  try {
    return await use(bus);
  } finally {
    stopListening();
    connection.close();
  }
}

/** The command name (from /proc) of the process that owns a bus name; undefined if it cannot be told. */
export async function ownerCommand(bus: SessionBus, name: string): Promise<string | undefined> {
  try {
    const { pidOf } = await import('../dbus/bus.js');
    const pid = await pidOf(bus, name);
    // The program's file name, whole: /proc's comm keeps its first 15 characters ("notification-da").
    const [program] = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return program ? basename(program) : undefined;
  } catch {
    return undefined;
  }
}
