/**
 * Direct connections to the apps' own D-Bus servers, as libatspi (and so pyatspi and Orca) makes them: an AT-SPI
 * app answers org.a11y.atspi.Application.GetApplicationBusAddress with a socket of its own, and a call sent there
 * skips the bus daemon, which otherwise routes every call and every reply of a walk (the busiest process of one,
 * and half its time). The replies name elements exactly as on the bus. An app without such a server (GTK4) or
 * one that cannot be reached keeps getting its calls through the bus, and so does an app whose socket closes.
 *
 * An action goes on a connection of its own (`alone`). at-spi2-atk answers DoAction first and runs the action
 * after, still inside its handling of that connection's message: a GTK3 button that opens a modal dialog runs
 * the dialog's loop right there, and the app reads no other message from that connection until the dialog
 * closes (measured: every later call on the app's one lane went unanswered, while a new connection was answered
 * at once). Only the action's own connection stays blocked, and it is closed once the action answered.
 */
import { createConnection, type Socket } from 'node:net';
import { handshake } from './dbus-next-internals.js';
import { Lane } from './direct.js';
import type { MethodCall } from './wire.js';

type ViaBus = (call: MethodCall, timeoutMs: number, timeout: () => Error) => Promise<unknown[]>;

const APP_ROOT = '/org/a11y/atspi/accessible/root';
const CONNECT_TIMEOUT_MS = 2000;
const ADDRESS = /^unix:(path|abstract)=([^,;]+)/;

function connectSocket(address: string): Promise<Socket> {
  const parsed = ADDRESS.exec(address);
  if (!parsed) return Promise.reject(new Error(`not a unix socket address: ${address}`));
  const path = parsed[1] === 'abstract' ? `\0${parsed[2] ?? ''}` : (parsed[2] ?? '');
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error('no answer')), CONNECT_TIMEOUT_MS);
    socket.once('error', fail);
    socket.once('connect', () =>
      handshake(socket, (error) => {
        clearTimeout(timer);
        socket.removeListener('error', fail);
        if (error) fail(error);
        else resolve(socket);
      }),
    );
  });
}

export class Peers {
  /** By the app's unique bus name: its lane, 'connecting', or 'none' (through the bus). */
  private readonly lanes = new Map<string, Lane | 'connecting' | 'none'>();
  /** By the app's unique bus name: the address of its own D-Bus server, once its lane connected. */
  private readonly addresses = new Map<string, string>();
  private readonly sockets = new Set<Socket>();
  private closed = false;

  constructor(private readonly viaBus: ViaBus) {}

  /**
   * The direct lane to `destination` when one is open. The first time an app's unique name is seen a
   * connection starts; its calls go through the bus meanwhile.
   */
  lane(destination: string): Lane | undefined {
    const known = this.lanes.get(destination);
    if (known instanceof Lane) return known;
    if (known === undefined && destination.startsWith(':')) {
      this.lanes.set(destination, 'connecting');
      void this.connect(destination);
    }
    return undefined;
  }

  private async connect(name: string): Promise<void> {
    try {
      const [address] = await this.viaBus(
        {
          destination: name,
          path: APP_ROOT,
          iface: 'org.a11y.atspi.Application',
          member: 'GetApplicationBusAddress',
        },
        CONNECT_TIMEOUT_MS,
        () => new Error('no answer'),
      );
      if (typeof address !== 'string' || !address) throw new Error('no address');
      const lane = await this.open(address, () => this.lanes.set(name, 'none'));
      if (!lane) return;
      this.addresses.set(name, address);
      this.lanes.set(name, lane);
    } catch {
      this.lanes.set(name, 'none');
    }
  }

  /** A lane on a new connection to `address`; undefined once the peers are closed. */
  private async open(address: string, onClose: () => void): Promise<Lane | undefined> {
    const socket = await connectSocket(address);
    if (this.closed) {
      socket.destroy();
      return undefined;
    }
    this.sockets.add(socket);
    let serial = 0;
    const lane = new Lane(
      socket,
      () => (serial = (serial % 0xfffffffe) + 1),
      // Apps send their events here too; the bus connection hears them already.
      () => {},
    );
    socket.on('data', (chunk: Buffer) => lane.receive(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.sockets.delete(socket);
      onClose();
      lane.closed();
    });
    return lane;
  }

  /**
   * The call sent on a connection to the app of its own, closed once it is answered; undefined (nothing sent)
   * when the app has no lane of its own to copy, or the call cannot be sent that way.
   */
  async alone(call: MethodCall, timeoutMs: number, timeout: () => Error): Promise<unknown[] | undefined> {
    const address = this.addresses.get(call.destination);
    if (address === undefined) return undefined;
    const lane = await this.open(address, () => {}).catch(() => undefined);
    if (!lane) return undefined;
    const sent = lane.send(call, timeoutMs, timeout);
    if (!sent) {
      lane.close();
      return undefined;
    }
    return sent.finally(() => lane.close());
  }

  /** Closes every direct connection; calls still waiting on one are sent again through the bus. */
  close(): void {
    this.closed = true;
    for (const socket of this.sockets) socket.destroy();
  }
}
