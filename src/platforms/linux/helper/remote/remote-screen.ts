/**
 * screen.displays and screen.capture on a RemoteDesktop desk (GNOME, KDE Plasma): the monitors from the desktop's
 * shell, a frame of a monitor's ScreenCast stream read from PipeWire by GStreamer (one process per capture),
 * cropped to the area asked for. An area over several monitors is read from the monitor that holds most of it.
 */
import {
  type Bounds,
  type DisplayInfo,
  HelperErrorCode,
  type Params,
  type Result,
} from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';
import { displayBounds } from '../desk-checks.js';
import type { Session } from '../session.js';
import { runTool } from '../wayland/tools.js';
import { captured, encode } from '../x11/screen-pixels.js';
import type { RemoteDesk, Stream } from './remote-desk.js';

const RGB = 3;

export async function displays(session: Session): Promise<Result<'screen.displays'>> {
  return { displays: await displaysOf(await session.remoteDesk()) };
}

async function displaysOf(desk: RemoteDesk): Promise<DisplayInfo[]> {
  return (await desk.shell.monitors()).map((m) => ({
    id: m.connector,
    name: m.name,
    bounds: m.bounds,
    scale: m.scale,
    primary: m.primary,
  }));
}

async function targetBounds(desk: RemoteDesk, target: Params<'screen.capture'>['target']): Promise<Bounds> {
  if ('region' in target) return target.region;
  if ('window' in target) {
    const window = (await desk.shell.windows()).find((w) => w.id === target.window);
    if (!window) {
      throw new HelperFailure(
        HelperErrorCode.NotAvailable,
        `the window ${target.window} does not exist`,
        'it may have closed; list the windows again',
      );
    }
    return window.frame;
  }
  return displayBounds(await displaysOf(desk), target.display);
}

const overlap = (a: Bounds, b: Bounds): number =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/** One frame of the stream, as RGB rows of the monitor's size. */
async function frame(session: Session, stream: Stream, signal?: AbortSignal): Promise<Buffer> {
  const { width, height } = stream.monitor.bounds;
  const run = await runTool(
    'gst-launch-1.0',
    [
      '-q',
      'pipewiresrc',
      `path=${stream.node}`,
      'num-buffers=1',
      '!',
      'videoconvert',
      '!',
      `video/x-raw,format=RGB,width=${width},height=${height}`,
      '!',
      'fdsink',
      'fd=1',
    ],
    session.env,
    { signal },
  );
  if (run.code !== 0 || run.stdout.length < width * height * RGB) {
    throw new HelperFailure(
      HelperErrorCode.Failed,
      `GStreamer read no frame of the screen cast (exit ${run.code}): ${run.stderr.trim() || 'no message'}`,
      "install GStreamer's PipeWire source (on Debian and Ubuntu: sudo apt install gstreamer1.0-pipewire gstreamer1.0-tools), and check that pipewire runs",
    );
  }
  return run.stdout.subarray(0, width * height * RGB);
}

export async function capture(
  session: Session,
  params: Params<'screen.capture'>,
  signal?: AbortSignal,
): Promise<Result<'screen.capture'>> {
  const desk = await session.remoteDesk();
  const wanted = await targetBounds(desk, params.target);
  const { streams } = await desk.remote();
  const [stream] = [...streams].sort(
    (a, b) => overlap(wanted, b.monitor.bounds) - overlap(wanted, a.monitor.bounds),
  );
  if (!stream)
    throw new HelperFailure(
      HelperErrorCode.NotAvailable,
      `the ${desk.shell.desktop} session has no monitor`,
      'connect a monitor',
    );
  const monitor = stream.monitor.bounds;
  const left = Math.max(Math.floor(wanted.x), monitor.x);
  const top = Math.max(Math.floor(wanted.y), monitor.y);
  const right = Math.min(Math.ceil(wanted.x + wanted.width), monitor.x + monitor.width);
  const bottom = Math.min(Math.ceil(wanted.y + wanted.height), monitor.y + monitor.height);
  if (right <= left || bottom <= top) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      `the area ${wanted.width}x${wanted.height} at ${wanted.x},${wanted.y} is on no monitor`,
      'capture an area on a monitor screen.displays lists',
    );
  }
  const rows = await frame(session, stream, signal);
  const area = { x: left, y: top, width: right - left, height: bottom - top };
  const cropped = Buffer.alloc(area.width * area.height * RGB);
  for (let row = 0; row < area.height; row++) {
    const from = ((area.y - monitor.y + row) * monitor.width + (area.x - monitor.x)) * RGB;
    rows.copy(cropped, row * area.width * RGB, from, from + area.width * RGB);
  }
  const encoded = await encode(cropped, area.width, area.height, params, RGB);
  return captured(encoded, area, params.format);
}
