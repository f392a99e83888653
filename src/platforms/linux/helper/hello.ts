/** system.hello: versions and what this machine offers, each with a reason a person can act on. */
import { type Capability, PROTOCOL_VERSION, type Result } from '../../../helper-client/protocol.js';
import { getChildren, REGISTRY } from './atspi/atspi.js';
import { describeAssistiveSwitch } from './atspi/assistive.js';
import { VERSION } from '../../../version.js';
import { inputCapability } from './x11/input.js';
import { recordingCapability } from './x11/record.js';
import type { Session } from './session.js';
import { PACKAGE_OF, runTool } from './wayland/tools.js';

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function accessibility(session: Session): Promise<Capability> {
  try {
    const bus = await session.a11y();
    const apps = await getChildren(bus, REGISTRY);
    const hidden = [
      session.env.NO_AT_BRIDGE === '1' ? 'NO_AT_BRIDGE=1 hides GTK3 apps started from this environment' : '',
      session.env.GTK_A11Y === 'none' ? 'GTK_A11Y=none hides GTK4 apps started from this environment' : '',
    ].filter(Boolean);
    const browsers = session.assistive ? [describeAssistiveSwitch(session.assistive, session.env)] : [];
    return {
      available: true,
      detail: [`AT-SPI bus reachable, ${apps.length} accessible apps`, ...hidden, ...browsers].join('; '),
    };
  } catch (error) {
    return { available: false, detail: reason(error) };
  }
}

async function display(session: Session): Promise<Capability> {
  try {
    const x11 = await session.x11();
    const windowManager = await x11.hasWindowManager();
    return {
      available: true,
      detail: `X display ${session.env.DISPLAY}${windowManager ? '' : ' (no EWMH window manager: window activation and closing are unavailable)'}`,
    };
  } catch (error) {
    return { available: false, detail: reason(error) };
  }
}

export async function hello(session: Session): Promise<Result<'system.hello'>> {
  const [a11y, desk] = await Promise.all([
    accessibility(session),
    {
      x11: x11Capabilities,
      sway: swayCapabilities,
      gnome: remoteCapabilities,
      kde: remoteCapabilities,
    }[session.desk](session),
  ]);
  return {
    protocolVersion: PROTOCOL_VERSION,
    helperVersion: VERSION,
    platform: 'linux',
    capabilities: { accessibility: a11y, ...desk },
  };
}

const noRecordingOnWayland = {
  available: false,
  detail:
    "a Wayland client cannot hear the input meant for other apps: recording the person's input needs X11",
};

type DeskCapabilities = Record<'display' | 'input' | 'screenCapture' | 'recording', Capability>;

async function x11Capabilities(session: Session): Promise<DeskCapabilities> {
  const [x, input, recording] = await Promise.all([
    display(session),
    inputCapability(session),
    recordingCapability(session),
  ]);
  return {
    display: x,
    input,
    screenCapture: x.available
      ? { available: true, detail: 'screenshots through X11 GetImage' }
      : {
          available: false,
          detail: x.detail.startsWith('no X display') ? x.detail : `no X display: ${x.detail}`,
        },
    recording,
  };
}

/** A packaged tool macpilot runs, found or named with its package. */
async function tool(name: string, session: Session): Promise<string | undefined> {
  const found = await runTool(name, ['--help'], session.env).then(
    () => true,
    () => false,
  );
  return found
    ? undefined
    : `${name} is not installed (Debian and Ubuntu: sudo apt install ${PACKAGE_OF[name] ?? name})`;
}

async function swayCapabilities(session: Session): Promise<DeskCapabilities> {
  const recording = noRecordingOnWayland;
  let desk;
  try {
    desk = await session.sway();
  } catch (error) {
    const missing = { available: false, detail: reason(error) };
    return { display: missing, input: missing, screenCapture: missing, recording };
  }
  const [version, pointer, wtype, grim] = await Promise.all([
    desk.ipc.version().then(
      (v) => `sway ${v}`,
      () => 'sway',
    ),
    desk.pointer().then(
      () => undefined,
      (error: unknown) => reason(error),
    ),
    tool('wtype', session),
    tool('grim', session),
  ]);
  const inputMissing = [pointer, wtype].filter(Boolean).join('; ');
  return {
    display: {
      available: true,
      detail: `Wayland: ${version} (WAYLAND_DISPLAY=${session.env.WAYLAND_DISPLAY}), windows through sway's IPC`,
    },
    input: inputMissing
      ? { available: false, detail: inputMissing }
      : {
          available: true,
          detail: "a virtual pointer of macpilot's own (wlr-virtual-pointer) and keys through wtype",
        },
    screenCapture: grim
      ? { available: false, detail: grim }
      : { available: true, detail: 'screenshots through grim (wlr-screencopy)' },
    recording,
  };
}

async function remoteCapabilities(session: Session): Promise<DeskCapabilities> {
  let desk;
  try {
    desk = await session.remoteDesk();
  } catch (error) {
    const missing = { available: false, detail: reason(error) };
    return { display: missing, input: missing, screenCapture: missing, recording: noRecordingOnWayland };
  }
  const portal = (await desk.route()) === 'portal';
  type RemoteFacts = { error: string } | { version: number } | { streams: number };
  const [remote, windows, gstreamer] = await Promise.all([
    portal
      ? desk.portalVersion().then((version): RemoteFacts =>
          version > 0
            ? { version }
            : {
                error: `no RemoteDesktop portal on the session bus (install xdg-desktop-portal and ${desk.shell.portalBackend})`,
              },
        )
      : desk.remote().then(
          (r): RemoteFacts => ({ streams: r.streams.length }),
          (error: unknown): RemoteFacts => ({ error: reason(error) }),
        ),
    desk.shell.windows().then(
      (listed) => ({ count: listed.length }),
      (error: unknown) => ({ error: reason(error) }),
    ),
    tool('gst-launch-1.0', session),
  ]);
  const where = `Wayland: ${desk.shell.desktop} (WAYLAND_DISPLAY=${session.env.WAYLAND_DISPLAY})`;
  return {
    display:
      'error' in windows
        ? { available: false, detail: `${where}; windows: ${windows.error}` }
        : { available: true, detail: `${where}, windows through ${desk.shell.windowsRoute}` },
    input:
      'error' in remote
        ? { available: false, detail: remote.error }
        : 'version' in remote
          ? {
              available: true,
              detail: `keys and pointer through the RemoteDesktop portal (version ${remote.version}), once the person allows it in its dialog (${remote.version >= 2 ? 'asked once: the answer is kept' : 'asked again by each new helper: this portal cannot keep the answer'})`,
            }
          : { available: true, detail: "keys and pointer through Mutter's RemoteDesktop" },
    screenCapture:
      'error' in remote
        ? { available: false, detail: remote.error }
        : gstreamer
          ? { available: false, detail: gstreamer }
          : {
              available: true,
              detail:
                'version' in remote
                  ? "screenshots from the portal's screen cast of each monitor, read through PipeWire by GStreamer"
                  : `screenshots from Mutter's ScreenCast (a stream of each monitor: ${remote.streams}, read through PipeWire by GStreamer)`,
            },
    recording: noRecordingOnWayland,
  };
}
