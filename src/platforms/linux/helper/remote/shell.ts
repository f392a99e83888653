/**
 * What a Wayland desktop reached over the session bus tells about itself, beside the RemoteDesktop session that
 * carries keys, the pointer and frames: its monitors and its windows, and how to act on a window. GNOME tells
 * them through macpilot's GNOME Shell extension, KDE Plasma through a KWin script.
 */
import type { Bounds } from '../../../../helper-client/protocol.js';

export interface Monitor {
  connector: string;
  name: string;
  /** In the layout's logical pixels. */
  bounds: Bounds;
  scale: number;
  primary: boolean;
}

/** A window as the shell lists it, bottom of the stacking first. */
export interface ShellWindow {
  id: string;
  title: string;
  pid: number;
  wmClass: string;
  /** The window's frame, as people see it. */
  frame: Bounds;
  /** Its surface, shadows included: where the app's window-relative extents count from. */
  buffer: Bounds;
  focused: boolean;
  minimized: boolean;
  xwayland: boolean;
}

export interface Shell {
  /** The desktop, as messages name it ("GNOME", "KDE Plasma"). */
  readonly desktop: string;
  /** Where windows come from, as check_permissions says it. */
  readonly windowsRoute: string;
  /** The package of xdg-desktop-portal's backend for this desktop. */
  readonly portalBackend: string;
  monitors(): Promise<Monitor[]>;
  /** Bottom of the stacking first. */
  windows(): Promise<ShellWindow[]>;
  /** Brings the window forward (restoring it when minimized) and gives it the keyboard focus. */
  activate(id: string): Promise<void>;
  moveResize(id: string, frame: Bounds): Promise<void>;
  minimize(id: string): Promise<void>;
  /** Asks the window to close, as its close button would. */
  close(id: string): Promise<void>;
}
