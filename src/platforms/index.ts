/** Which helper this machine runs, and how to start it. */
import { join } from 'node:path';
import { MacpilotError } from '../errors.js';
import type { HelperCommand } from '../helper-client/client.js';
import { PACKAGE_ROOT } from '../package-root.js';
import type { ServiceCheck, Services } from '../services/types.js';
import { VERSION } from '../version.js';
import { binaryIn, installLocation } from './macos/bundle.js';
import { ensureHelper } from './macos/install.js';
import { macosServices } from './macos/services.js';
import { linuxServiceChecks } from './linux/services/checks.js';
import { linuxServices } from './linux/services/index.js';
import { TesseractRecognizer } from './linux/ocr/tesseract.js';
import { macosServiceChecks } from './macos/checks.js';

/** The bundled Linux helper (scripts/bundle.ts), wherever this module runs from (src/ in tests, or a bundle). */
const LINUX_HELPER = join(PACKAGE_ROOT, 'dist', 'macpilot-linux-helper.js');

export function helperCommand(
  options: {
    helperPath?: string;
    platform?: NodeJS.Platform;
    portal?: string;
    /** The accessibility setting, where it was set, and how the person changes it to "leave". */
    accessibility?: { value: string; setBy: string; leave: string };
  } = {},
): HelperCommand {
  const platform = options.platform ?? process.platform;
  // The helper reads MACPILOT_PORTAL and MACPILOT_ACCESSIBILITY from its environment, wherever the person set
  // them (a flag, the file).
  const settings = Object.entries({
    MACPILOT_PORTAL: options.portal,
    MACPILOT_ACCESSIBILITY: options.accessibility?.value,
    MACPILOT_ACCESSIBILITY_SET_BY: options.accessibility?.setBy,
    MACPILOT_ACCESSIBILITY_LEAVE: options.accessibility?.leave,
  }).filter(([, value]) => value !== undefined);
  const env = settings.length === 0 ? undefined : { ...process.env, ...Object.fromEntries(settings) };
  const command = helperAt(options, platform);
  return env ? { ...command, env } : command;
}

/** The command that starts the helper for this platform, or the one the person named. */
function helperAt(options: { helperPath?: string }, platform: NodeJS.Platform): HelperCommand {
  if (options.helperPath) {
    if (options.helperPath.endsWith('.js')) return { command: process.execPath, args: [options.helperPath] };
    const app = options.helperPath.replace(/\/+$/, '');
    return { command: app.endsWith('.app') ? binaryIn(app) : options.helperPath, args: [] };
  }
  if (platform === 'linux') return { command: process.execPath, args: [LINUX_HELPER] };
  if (platform === 'darwin') {
    return {
      command: installLocation().binary,
      args: [],
      prepare: async (signal) => {
        await ensureHelper({ version: VERSION, packageRoot: PACKAGE_ROOT, signal });
      },
    };
  }
  throw new MacpilotError({
    what: `No helper for ${platform}`,
    why: 'macpilot has helpers for Linux and macOS only',
    next: 'set MACPILOT_HELPER_PATH to a helper binary that speaks the macpilot helper protocol',
  });
}

/** `macpilot install-helper`: on macOS, the helper app at its stable path now; what was done, in words. */
export async function installHelper(platform: NodeJS.Platform = process.platform): Promise<string> {
  if (platform !== 'darwin') return `nothing to install on ${platform}: the helper comes with the package`;
  const { binary, source } = await ensureHelper({ version: VERSION, packageRoot: PACKAGE_ROOT });
  const how = {
    installed: 'already in place',
    package: 'copied from macpilot-darwin',
    download: 'downloaded and verified',
  };
  return `macOS helper ${VERSION}: ${binary} (${how[source]})`;
}

/** What this platform offers beyond the accessibility tree; a tool whose service is missing is not listed. */
export function platformServices(platform: NodeJS.Platform = process.platform): Services {
  if (platform === 'linux') return linuxServices();
  if (platform === 'darwin') return macosServices();
  return {};
}

/** What `macpilot doctor` checks of the platform services (optional: they serve the non-default toolsets). */
export function platformServiceChecks(platform: NodeJS.Platform = process.platform): ServiceCheck[] {
  if (platform === 'linux') return linuxServiceChecks();
  if (platform === 'darwin') return macosServiceChecks();
  return [];
}

/**
 * What reads text on screen in the server, where the helper does not: tesseract.js on Linux. Undefined elsewhere:
 * the engine asks the helper (Vision on macOS).
 */
export function platformTextRecognizer(
  platform: NodeJS.Platform = process.platform,
): TesseractRecognizer | undefined {
  return platform === 'linux' ? new TesseractRecognizer() : undefined;
}
