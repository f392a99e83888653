// A keyboard and a pointer on a headless GNOME Shell's seat, for as long as this process runs: a RemoteDesktop
// session of Mutter's, as a real desk's devices would be. Without a keyboard on the seat, a window mapped before
// macpilot's own session started never gets the keyboard focus. Writes `ready` to the file given once started.
import { writeFileSync } from 'node:fs';
import { setInterval } from 'node:timers';
import dbus from 'dbus-next';

const NAME = 'org.gnome.Mutter.RemoteDesktop';
const bus = dbus.sessionBus();
const remote = (await bus.getProxyObject(NAME, '/org/gnome/Mutter/RemoteDesktop')).getInterface(NAME);
const path = await remote.CreateSession();
const session = (await bus.getProxyObject(NAME, path)).getInterface(`${NAME}.Session`);
await session.Start();
// Mutter makes a session's devices at their first event: a Shift pressed and released, a pointer moved by nothing.
const SHIFT = 0xffe1;
await session.NotifyKeyboardKeysym(SHIFT, true);
await session.NotifyKeyboardKeysym(SHIFT, false);
await session.NotifyPointerMotionRelative(0, 0);
session.on('Closed', () => process.exit(1));
if (process.argv[2]) writeFileSync(process.argv[2], 'ready\n');
setInterval(() => {}, 1 << 30);
