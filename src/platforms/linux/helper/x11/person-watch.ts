/**
 * The person at the desk, heard through XI2 raw events: every key press, button press and pointer motion of
 * every device reaches the root window with the slave device it came from. The helper's own synthetic input
 * comes from the XTEST devices of the core pointer and keyboard (XTEST fakes input on the requesting client's
 * pointer pair); input from any other device is the person's: a mouse, a keyboard, a touchpad, or another
 * pointer pair's devices. Another program's XTEST input on the core pair (xdotool) cannot be told from the
 * helper's own.
 */
import type * as x11 from 'x11';
import type { X11 } from './ewmh.js';

const WATCHED = ['RawKeyPress', 'RawButtonPress', 'RawMotion'];
const RAW_EVENT_NAMES = new Set(WATCHED.map((name) => `XI${name}`));
/** XIQueryDevice's use of a master pointer and a master keyboard. */
const MASTER_POINTER = 1;
const MASTER_KEYBOARD = 2;
const CORE_POINTER_NAME = 'Virtual core pointer';

/** An event on the connection, which is an XI2 raw event when its name says so. */
interface RawEvent {
  name?: string;
  sourceId?: number;
}

/** The person's latest input: when (Date.now()), from which device, and what it was. */
export interface PersonInput {
  at: number;
  device: string;
  kind: 'key' | 'button' | 'motion';
}

export class PersonWatch {
  private latest: PersonInput | undefined;
  private names = new Map<number, string>();

  private constructor(
    private readonly x11: X11,
    private readonly xinput: x11.XInput,
    /** The slave devices the helper's own input comes from. */
    private readonly own: ReadonlySet<number>,
  ) {}

  /** Starts hearing raw events on the display; refused (with why) where the server has no XI2. */
  static async open(display: X11): Promise<PersonWatch> {
    const xinput = await display.x<x11.XInput>((cb) => display.client.require('xinput', cb));
    if (!xinput.xi2)
      throw new Error('the X server has no XInput 2, whose raw events name the device of each input');
    const devices = await display.x<x11.XIDevice[]>((cb) => xinput.XIQueryDevice(xinput.AllDevices, cb));
    const watch = new PersonWatch(display, xinput, ownDevices(devices));
    watch.remember(devices);
    display.client.on('event', (event: RawEvent) => watch.heard(event));
    xinput.XISelectEvents(display.root, { deviceId: xinput.AllMasterDevices, mask: WATCHED });
    await display.sync();
    return watch;
  }

  /** The person's latest input at or after `since` (a Date.now() time), if any. */
  since(since: number): PersonInput | undefined {
    return this.latest && this.latest.at >= since ? this.latest : undefined;
  }

  private heard(event: RawEvent): void {
    if (event.name === undefined || !RAW_EVENT_NAMES.has(event.name)) return;
    if (event.sourceId === undefined || this.own.has(event.sourceId)) return;
    const kind =
      event.name === 'XIRawKeyPress' ? 'key' : event.name === 'XIRawButtonPress' ? 'button' : 'motion';
    const device = this.names.get(event.sourceId);
    this.latest = { at: Date.now(), device: device ?? `input device ${event.sourceId}`, kind };
    // A device plugged in since the watch began: its name is read for the next report.
    if (device === undefined) void this.learn(event.sourceId);
  }

  private remember(devices: readonly x11.XIDevice[]): void {
    for (const device of devices) this.names.set(device.deviceId, device.name);
  }

  private async learn(deviceId: number): Promise<void> {
    this.names.set(deviceId, `input device ${deviceId}`);
    try {
      this.remember(await this.x11.x<x11.XIDevice[]>((cb) => this.xinput.XIQueryDevice(deviceId, cb)));
    } catch {
      // Gone again: the number stays its name.
    }
  }
}

/** The XTEST slaves of the core pointer and its paired keyboard, which the helper's XTEST input comes from. */
function ownDevices(devices: readonly x11.XIDevice[]): Set<number> {
  const pointer = devices.find((d) => d.use === MASTER_POINTER && d.name === CORE_POINTER_NAME);
  const masters = new Set(
    pointer
      ? [pointer.deviceId, pointer.attachment]
      : devices
          .filter((d) => d.use === MASTER_POINTER || d.use === MASTER_KEYBOARD)
          .slice(0, 2)
          .map((d) => d.deviceId),
  );
  return new Set(
    devices.filter((d) => masters.has(d.attachment) && d.name.includes('XTEST')).map((d) => d.deviceId),
  );
}
