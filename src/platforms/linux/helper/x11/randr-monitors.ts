/**
 * RandR 1.5 monitors (RRGetMonitors, minor opcode 42): the areas GTK and window managers place windows in, which
 * may be cut out of one output (two monitors over one wide CRTC) or span several. The x11 package does not know
 * the request, so it is written here on the package's own request queue.
 */
import type * as x11 from 'x11';
import type { Bounds } from '../../../../helper-client/protocol.js';
import type { X11 } from './ewmh.js';

export interface Monitor {
  name: string;
  primary: boolean;
  bounds: Bounds;
}

const GET_MONITORS = 42;
/** Each monitor's fixed part in the reply: name, primary, automatic, output count, x, y, width, height, mm. */
const MONITOR_BYTES = 24;

/** The part of the x11 client this request reaches past the package's API. */
interface RequestQueue {
  seq_num: number;
  replies: Record<number, [(data: Buffer) => unknown, (error: unknown, result?: unknown) => boolean]>;
  pack_stream: { put(data: Buffer): void; submit(flush: boolean): void };
}

interface RawMonitor {
  atom: number;
  primary: boolean;
  bounds: Bounds;
}

/** The reply after its 8-byte header: timestamp, monitor count, output count, padding, then each monitor. */
function unpackMonitors(data: Buffer): RawMonitor[] {
  const count = data.readUInt32LE(4);
  const monitors: RawMonitor[] = [];
  let at = 24;
  for (let i = 0; i < count && at + MONITOR_BYTES <= data.length; i++) {
    const outputs = data.readUInt16LE(at + 6);
    monitors.push({
      atom: data.readUInt32LE(at),
      primary: data.readUInt8(at + 4) !== 0,
      bounds: {
        x: data.readInt16LE(at + 8),
        y: data.readInt16LE(at + 10),
        width: data.readUInt16LE(at + 12),
        height: data.readUInt16LE(at + 14),
      },
    });
    at += MONITOR_BYTES + outputs * 4;
  }
  return monitors;
}

/** The active monitors, or undefined when the server's RandR is older than 1.5. */
export async function randrMonitors(x: X11, randr: x11.RandR): Promise<Monitor[] | undefined> {
  const [major, minor] = await x.x<[number, number]>((cb) => randr.QueryVersion(1, 5, cb));
  if (major < 1 || (major === 1 && minor < 5)) return undefined;
  const queue = x.client as unknown as RequestQueue;
  const raw = await new Promise<RawMonitor[]>((resolve, reject) => {
    queue.seq_num++;
    const request = Buffer.alloc(12);
    request.writeUInt8(randr.majorOpcode, 0);
    request.writeUInt8(GET_MONITORS, 1);
    request.writeUInt16LE(3, 2);
    request.writeUInt32LE(x.root >>> 0, 4);
    request.writeUInt8(1, 8); // get_active
    queue.pack_stream.put(request);
    queue.replies[queue.seq_num] = [
      unpackMonitors,
      (error, result) => {
        if (error) reject(error);
        else resolve(result as RawMonitor[]);
        return true; // handled: an error here is this request's, not the connection's
      },
    ];
    queue.pack_stream.submit(true);
  });
  return Promise.all(
    raw.map(async (m, i) => ({
      name: await x.x<string>((cb) => x.client.GetAtomName(m.atom, cb)).catch(() => `monitor-${i}`),
      primary: m.primary,
      bounds: m.bounds,
    })),
  );
}
