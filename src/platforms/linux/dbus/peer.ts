/**
 * Direct connections to the apps' own D-Bus servers, as libatspi (and so pyatspi and Orca) makes them: an AT-SPI
 * app answers org.a11y.atspi.Application.GetApplicationBusAddress with a socket of its own, and a call sent there
 * skips the bus daemon, which otherwise routes every call and every reply of a walk (the busiest process of one,
 * and half its time). The replies name elements exactly as on the bus. An app without such a server (GTK4) or
 * one that cannot be reached keeps getting its calls through the bus, and so does an app whose socket closes.
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
      const socket = await connectSocket(address);
      if (this.closed) {
        socket.destroy();
        return;
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
        this.lanes.set(name, 'none');
        lane.closed();
      });
      this.lanes.set(name, lane);
    } catch {
      this.lanes.set(name, 'none');
    }
  }

  /** Closes every direct connection; calls still waiting on one are sent again through the bus. */
  close(): void {
    this.closed = true;
    for (const socket of this.sockets) socket.destroy();
  }
}
