/**
 * GNOME as the RemoteDesktop desk sees it: the monitors from Mutter's DisplayConfig, and the windows and the
 * clipboard from macpilot's GNOME Shell extension (gnome-extension/), since GNOME Shell tells no other program
 * where windows are.
 */
import { fileURLToPath } from 'node:url';
import { type Bounds, HelperErrorCode } from '../../../../helper-client/protocol.js';
import type { Bus } from '../../dbus/bus.js';
import { DBusCallError, HelperFailure } from '../../errors.js';
import type { Monitor, Shell, ShellWindow } from '../remote/shell.js';

const DISPLAY_CONFIG = 'org.gnome.Mutter.DisplayConfig';
const BUS_DAEMON = 'org.freedesktop.DBus';
const GNOME_SHELL = 'org.gnome.Shell';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
/** macpilot's GNOME Shell extension. */
export const WINDOWS_SERVICE = 'org.macpilot.Windows';
const WINDOWS_PATH = '/org/macpilot/Windows';
export const EXTENSION_UUID = 'macpilot@macpilot.dev';
/**
 * Where macpilot's package holds the extension (beside dist/, where this code runs from): for GNOME Shell 42 to 44
 * (legacy format), and for 45 and later (ES modules).
 */
const EXTENSION_FOLDER = fileURLToPath(new URL(`../gnome-extension/${EXTENSION_UUID}`, import.meta.url));
const EXTENSION_FOLDER_45 = fileURLToPath(
  new URL(`../gnome-extension/45/${EXTENSION_UUID}`, import.meta.url),
);

export class GnomeShell implements Shell {
  readonly desktop = 'GNOME';
  readonly windowsRoute = "macpilot's GNOME Shell extension";
  readonly portalBackend = 'xdg-desktop-portal-gnome';

  constructor(private readonly bus: Bus) {}

  /** The monitors in the layout, from DisplayConfig's current state. */
  async monitors(): Promise<Monitor[]> {
    const [, physical, logical, properties] = (await this.bus.call(
      DISPLAY_CONFIG,
      '/org/gnome/Mutter/DisplayConfig',
      DISPLAY_CONFIG,
      'GetCurrentState',
    )) as [number, PhysicalMonitor[], LogicalMonitor[], Record<string, unknown>];
    // Layout mode 1 is physical pixels; 2 (the default under Wayland) is logical: a mode's size over the scale.
    const logicalLayout = properties['layout-mode'] !== 1;
    return logical.map(([x, y, scale, , primary, specs]) => {
      const [connector = '', vendor = '', product = ''] = specs[0] ?? [];
      const modes = physical.find(([spec]) => spec[0] === connector)?.[1] ?? [];
      const mode = modes.find((m) => m[6]['is-current'] === true) ?? modes[0];
      const divisor = logicalLayout ? scale : 1;
      return {
        connector,
        name: [vendor, product].filter((part) => part && !part.startsWith('Meta')).join(' ') || connector,
        bounds: {
          x,
          y,
          width: Math.round((mode?.[1] ?? 0) / divisor),
          height: Math.round((mode?.[2] ?? 0) / divisor),
        },
        scale,
        primary,
      };
    });
  }

  /** The windows, bottom of the stacking first, from macpilot's GNOME Shell extension. */
  async windows(): Promise<ShellWindow[]> {
    const [json] = (await this.call('List')) as [string];
    return JSON.parse(json) as ShellWindow[];
  }

  async activate(id: string): Promise<void> {
    await this.call('Activate', 't', [BigInt(id)]);
  }

  async moveResize(id: string, frame: Bounds): Promise<void> {
    await this.call('MoveResize', 'tiiii', [BigInt(id), frame.x, frame.y, frame.width, frame.height]);
  }

  async minimize(id: string): Promise<void> {
    await this.call('Minimize', 't', [BigInt(id)]);
  }

  async close(id: string): Promise<void> {
    await this.call('Close', 't', [BigInt(id)]);
  }

  /** A method of the extension's service (the clipboard's too). */
  async call(member: string, signature?: string, body?: unknown[]): Promise<unknown[]> {
    try {
      return await this.bus.call(WINDOWS_SERVICE, WINDOWS_PATH, WINDOWS_SERVICE, member, signature, body);
    } catch (error) {
      if (error instanceof DBusCallError && /ServiceUnknown|NameHasNoOwner/.test(error.type)) {
        throw new HelperFailure(
          HelperErrorCode.NotAvailable,
          "GNOME Shell tells no program where windows are, and macpilot's GNOME Shell extension is not running",
          `copy ${await this.extensionFolder()} to ~/.local/share/gnome-shell/extensions/, log out and in, then run \`gnome-extensions enable ${EXTENSION_UUID}\` (docs/linux-sessions.md)`,
        );
      }
      throw error;
    }
  }

  /** The extension's folder for the running GNOME Shell, by its ShellVersion; both when it does not say. */
  private async extensionFolder(): Promise<string> {
    try {
      const [version] = await this.bus.call(
        GNOME_SHELL,
        '/org/gnome/Shell',
        PROPERTIES,
        'Get',
        'ss',
        [GNOME_SHELL, 'ShellVersion'],
        2000,
      );
      const major = Number.parseInt(String(version), 10);
      if (Number.isInteger(major)) return major >= 45 ? EXTENSION_FOLDER_45 : EXTENSION_FOLDER;
    } catch {
      // No answer from GNOME Shell: the hint names both folders.
    }
    return `${EXTENSION_FOLDER_45} (GNOME 45 and later) or ${EXTENSION_FOLDER} (GNOME 42 to 44)`;
  }

  /** Calls `listener` at each change of the clipboard's owner; returns the function that stops it. */
  async onClipboardChange(listener: () => void): Promise<() => void> {
    await this.bus.call(BUS_DAEMON, '/org/freedesktop/DBus', BUS_DAEMON, 'AddMatch', 's', [
      `type='signal',interface='${WINDOWS_SERVICE}',member='ClipboardChanged'`,
    ]);
    return this.bus.onSignal((signal) => {
      if (signal.iface === WINDOWS_SERVICE && signal.member === 'ClipboardChanged') listener();
    });
  }
}

/** DisplayConfig's physical monitor: spec (connector, vendor, product, serial), modes, properties. */
type PhysicalMonitor = [[string, string, string, string], Mode[], Record<string, unknown>];
/** A mode: id, width, height, refresh rate, preferred scale, supported scales, properties. */
type Mode = [string, number, number, number, number, number[], Record<string, unknown>];
/** A logical monitor: x, y, scale, transform, primary, the physical monitors' specs, properties. */
type LogicalMonitor = [
  number,
  number,
  number,
  number,
  boolean,
  [string, string, string, string][],
  Record<string, unknown>,
];
