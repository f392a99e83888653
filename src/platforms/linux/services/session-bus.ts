/**
 * Method calls on the user's session D-Bus for the server's own services (notifications, the file manager). One
 * connection per use, closed afterwards: these calls are rare, and an open socket would keep the server alive
 * after its client has gone. dbus-next loads on first use, not at the server's start.
 */
import { readFile } from 'node:fs/promises';
import { MacpilotError } from '../../../errors.js';
import { DBusCallError } from '../errors.js';

export interface SessionBus {
  call(
    destination: string,
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: unknown[],
  ): Promise<unknown[]>;
  /** A variant for an a{sv} argument. */
  variant(signature: string, value: unknown): unknown;
}

/** Longest wait for one reply; D-Bus activation may start the service first. */
const CALL_TIMEOUT_MS = 10_000;

const busDown = (what: string, why: string) =>
  new MacpilotError({
    what,
    why,
    next: 'run macpilot inside the desktop session (it needs DBUS_SESSION_BUS_ADDRESS of that session), or start one with dbus-run-session',
  });

const timedOut = (what: string, member: string) =>
  new MacpilotError({
    what,
    why: `no reply to ${member} within ${CALL_TIMEOUT_MS / 1000} s`,
    next: 'the service may be hung: restart it, then retry',
  });

/**
 * Connects to the session bus in `env`, runs `use`, and disconnects. D-Bus error replies reach `use`'s caller as
 * DBusCallError (by error name); `what` names the action in the errors this adapter raises itself.
 */
export async function withSessionBus<T>(
  env: NodeJS.ProcessEnv,
  what: string,
  use: (bus: SessionBus) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) throw busDown(what, 'there is no session bus: DBUS_SESSION_BUS_ADDRESS is not set');
  const dbus = await import('dbus-next');
  const connection = dbus.sessionBus({ busAddress: address });
  const failed = new Promise<never>((_, reject) => {
    connection.on('error', (error: Error) =>
      reject(busDown(what, `cannot use the session bus at ${address} (${error.message})`)),
    );
  });
  failed.catch(() => {});
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});

  const bus: SessionBus = {
    async call(destination, path, iface, member, signature, body) {
      const message = new dbus.Message({
        destination,
        path,
        interface: iface,
        member,
        ...(signature ? { signature, body: body ?? [] } : {}),
      });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timedOut(what, member)), CALL_TIMEOUT_MS);
      });
      try {
        const reply = await Promise.race([connection.call(message), late, failed, aborted]);
        return reply?.body ?? [];
      } catch (error) {
        if (error instanceof dbus.DBusError) throw new DBusCallError(error.type, error.text ?? error.message);
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    variant: (sig, value) => new dbus.Variant(sig, value),
  };
  try {
    return await use(bus);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    connection.disconnect();
  }
}

/** The process that owns a bus name, by the bus daemon's word, and its command name from /proc; undefined if either is unknown. */
export async function ownerCommand(bus: SessionBus, name: string): Promise<string | undefined> {
  try {
    const [pid] = await bus.call(
      'org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus',
      'GetConnectionUnixProcessID',
      's',
      [name],
    );
    if (typeof pid !== 'number') return undefined;
    return (await readFile(`/proc/${pid}/comm`, 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}
