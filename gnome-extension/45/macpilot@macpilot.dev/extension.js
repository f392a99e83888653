/*
 * macpilot's service for GNOME Shell 45 and later (ES modules), on the session bus as org.macpilot.Windows: the
 * windows, bottom of the stacking first, with their frames, the few things macpilot does to a window, and the
 * clipboard. The same interface and behaviour as ../../macpilot@macpilot.dev/extension.js (GNOME Shell 42 to 44),
 * line for line; where the shell's API changed since 43, a comment says so.
 */
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import St from 'gi://St';
import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';

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
    <method name="ReadClipboard">
      <arg type="as" direction="out" name="types"/>
      <arg type="b" direction="out" name="has_text"/>
      <arg type="s" direction="out" name="text"/>
    </method>
    <method name="WriteClipboard"><arg type="s" direction="in" name="text"/></method>
    <method name="ClearClipboard"/>
    <signal name="ClipboardChanged"/>
    <property name="Version" type="u" access="read"/>
  </interface>
</node>`;

// Mutter 45 made the rectangles Mtk.Rectangle (Meta.Rectangle before): the same four fields.
const rectOf = (r) => ({ x: r.x, y: r.y, width: r.width, height: r.height });

function normalWindows() {
  // Shell.Global's list of window actors; mutter 48 removed Meta.get_window_actors(display), never used here.
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

/**
 * Unmaximizes `w` both ways when it is maximized either way. Mutter 49 replaced get_maximized() by
 * get_maximize_flags() (its new is_maximized() is true only when maximized both ways), and unmaximize(flags) by
 * unmaximize(), which unmaximizes both ways; mutter 45 to 48 have the API of 43.
 */
function unmaximize(w) {
  if (typeof w.get_maximize_flags === 'function') {
    if (w.get_maximize_flags()) w.unmaximize();
  } else if (w.get_maximized()) {
    w.unmaximize(Meta.MaximizeFlags.BOTH);
  }
}

const CLIPBOARD = St.ClipboardType.CLIPBOARD;

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
    unmaximize(w);
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

  // The clipboard as the shell holds it (St.Clipboard's calls are those of 43).
  ReadClipboardAsync(_parameters, invocation) {
    const clipboard = St.Clipboard.get_default();
    const types = clipboard.get_mimetypes(CLIPBOARD);
    if (!types.some((type) => type.startsWith('text/plain') || type === 'UTF8_STRING')) {
      invocation.return_value(new GLib.Variant('(asbs)', [types, false, '']));
      return;
    }
    clipboard.get_text(CLIPBOARD, (_clipboard, text) =>
      invocation.return_value(new GLib.Variant('(asbs)', [types, text !== null, text ?? ''])),
    );
  }

  WriteClipboard(text) {
    St.Clipboard.get_default().set_text(CLIPBOARD, text);
  }

  ClearClipboard() {
    // Owned for an instant by an empty source, then by no one.
    const selection = global.display.get_selection();
    const source = Meta.SelectionSourceMemory.new(
      'text/plain;charset=utf-8',
      new GLib.Bytes(new Uint8Array(0)),
    );
    selection.set_owner(Meta.SelectionType.SELECTION_CLIPBOARD, source);
    selection.unset_owner(Meta.SelectionType.SELECTION_CLIPBOARD, source);
  }
}

// GNOME Shell 45 constructs the default export with the metadata (Extension's constructor keeps it); no init().
export default class MacpilotExtension extends Extension {
  enable() {
    this._service = Gio.DBusExportedObject.wrapJSObject(INTERFACE, new WindowService());
    this._service.export(Gio.DBus.session, OBJECT_PATH);
    this._selection = global.display.get_selection();
    this._ownerChanged = this._selection.connect('owner-changed', (_selection, type) => {
      if (type === Meta.SelectionType.SELECTION_CLIPBOARD)
        this._service.emit_signal('ClipboardChanged', null);
    });
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
    this._selection.disconnect(this._ownerChanged);
    Gio.bus_unown_name(this._owner);
    this._service.unexport();
    this._service = null;
  }
}
