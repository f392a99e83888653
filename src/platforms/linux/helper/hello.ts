/** system.hello: versions and what this machine offers, each with a reason a person can act on. */
import { type Capability, PROTOCOL_VERSION, type Result } from '../../../helper-client/protocol.js';
import { getChildren, REGISTRY } from './atspi/atspi.js';
import { VERSION } from '../../../version.js';
import { inputCapability } from './x11/input.js';
import { recordingCapability } from './x11/record.js';
import type { Session } from './session.js';

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function accessibility(session: Session): Promise<Capability> {
  try {
    const bus = await session.a11y();
    const apps = await getChildren(bus, REGISTRY);
    const hidden = [
      session.env.NO_AT_BRIDGE === '1' ? 'NO_AT_BRIDGE=1 hides GTK3 apps started from this environment' : '',
      session.env.GTK_A11Y === 'none' ? 'GTK_A11Y=none hides GTK4 apps started from this environment' : '',
    ].filter(Boolean);
    return {
      available: true,
      detail: [`AT-SPI bus reachable, ${apps.length} accessible apps`, ...hidden].join('; '),
    };
  } catch (error) {
    return { available: false, detail: reason(error) };
  }
}

async function display(session: Session): Promise<Capability> {
  try {
    const x11 = await session.x11();
    const windowManager = (await x11.clientWindows()).length > 0 || (await x11.activeWindow()) !== undefined;
    return {
      available: true,
      detail: `X display ${session.env.DISPLAY}${windowManager ? '' : ' (no EWMH window manager: window activation and closing are unavailable)'}`,
    };
  } catch (error) {
    return { available: false, detail: reason(error) };
  }
}

export async function hello(session: Session): Promise<Result<'system.hello'>> {
  const [a11y, x, input, recording] = await Promise.all([
    accessibility(session),
    display(session),
    inputCapability(session),
    recordingCapability(session),
  ]);
  return {
    protocolVersion: PROTOCOL_VERSION,
    helperVersion: VERSION,
    platform: 'linux',
    capabilities: {
      accessibility: a11y,
      display: x,
      input: input,
      screenCapture: x.available
        ? { available: true, detail: 'screenshots through X11 GetImage' }
        : { available: false, detail: `no X display: ${x.detail}` },
      recording,
    },
  };
}
