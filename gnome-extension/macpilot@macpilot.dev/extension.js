/*
 * macpilot's window service for GNOME Shell 42 to 44 (legacy extension format): the windows, front to back, with
 * their frames, on the session bus as org.macpilot.Windows, and the few things macpilot does to a window.
 * GNOME Shell's own org.gnome.Shell.Introspect answers only its portals.
 */
const { Gio, GLib, Meta } = imports.gi;
const Main = imports.ui.main;

const BUS_NAME = 'org.macpilot.Windows';
const OBJECT_PATH = '/org/macpilot/Windows';
const INTERFACE = `<node>
  <interface name="org.macpilot.Windows">
    <method name="List"><arg type="s" direction="out" name="windows"/></method>
    <method name="Activate"><arg type="t" direction="in" name="id"/></method>
    <method name="MoveResize">
      <arg type="t" direction="in" name="id"/>
      <arg type="i" direction="in" name="x"/>
      <arg type="i" direction="in" name="y"/>
      <arg type="i" direction="in" name="width"/>
      <arg type="i" direction="in" name="height"/>
    </method>
    <method name="Minimize"><arg type="t" direction="in" name="id"/></method>
    <method name="Unminimize"><arg type="t" direction="in" name="id"/></method>
    <method name="Close"><arg type="t" direction="in" name="id"/></method>
    <property name="Version" type="u" access="read"/>
  </interface>
</node>`;

const rectOf = (r) => ({ x: r.x, y: r.y, width: r.width, height: r.height });

function normalWindows() {
  const windows = global
    .get_window_actors()
    .map((actor) => actor.meta_window)
    .filter((w) => w && !w.is_skip_taskbar() && w.get_window_type() !== Meta.WindowType.DESKTOP);
  // Bottom first, as the display stacks them.
  return global.display.sort_windows_by_stacking(windows);
}

function windowById(id) {
  const found = normalWindows().find((w) => String(w.get_id()) === String(id));
  if (!found) throw new GLib.Error(Gio.DBusError, Gio.DBusError.INVALID_ARGS, `no window has the id ${id}`);
  return found;
}

class WindowService {
  get Version() {
    return 1;
  }

  List() {
    return JSON.stringify(
      normalWindows().map((w) => ({
        id: String(w.get_id()),
        title: w.get_title() ?? '',
        pid: w.get_pid(),
        wmClass: w.get_wm_class() ?? '',
        frame: rectOf(w.get_frame_rect()),
        buffer: rectOf(w.get_buffer_rect()),
        focused: w.has_focus(),
        minimized: w.minimized,
        xwayland: w.get_client_type() === Meta.WindowClientType.X11,
        monitor: w.get_monitor(),
      })),
    );
  }

  Activate(id) {
    // As the shell activates a window: its workspace shown, the overview left.
    Main.activateWindow(windowById(id));
  }

  MoveResize(id, x, y, width, height) {
    const w = windowById(id);
    if (w.get_maximized()) w.unmaximize(Meta.MaximizeFlags.BOTH);
    w.move_resize_frame(true, x, y, width, height);
  }

  Minimize(id) {
    windowById(id).minimize();
  }

  Unminimize(id) {
    windowById(id).unminimize();
  }

  Close(id) {
    windowById(id).delete(global.get_current_time());
  }
}

class Extension {
  enable() {
    this._service = Gio.DBusExportedObject.wrapJSObject(INTERFACE, new WindowService());
    this._service.export(Gio.DBus.session, OBJECT_PATH);
    this._owner = Gio.bus_own_name(
      Gio.BusType.SESSION,
      BUS_NAME,
      Gio.BusNameOwnerFlags.NONE,
      null,
      null,
      null,
    );
  }

  disable() {
    Gio.bus_unown_name(this._owner);
    this._service.unexport();
    this._service = null;
  }
}

/* exported init */
function init() {
  return new Extension();
}
