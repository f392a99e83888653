/** Which helper this machine runs, and how to start it. */
import { join } from 'node:path';
import { MacpilotError } from '../errors.js';
import type { HelperCommand } from '../helper/client.js';
import { PACKAGE_ROOT } from '../package-root.js';

/** The bundled Linux helper (scripts/bundle.ts), wherever this module runs from (src/ in tests, or a bundle). */
const LINUX_HELPER = join(PACKAGE_ROOT, 'dist', 'macpilot-linux-helper.js');

export function helperCommand(
  options: { helperPath?: string; platform?: NodeJS.Platform } = {},
): HelperCommand {
  const platform = options.platform ?? process.platform;
  if (options.helperPath) {
    return options.helperPath.endsWith('.js')
      ? { command: process.execPath, args: [options.helperPath] }
      : { command: options.helperPath, args: [] };
  }
  if (platform === 'linux') return { command: process.execPath, args: [LINUX_HELPER] };
  throw new MacpilotError({
    what: `No helper for ${platform}`,
    why: 'this build of macpilot has a helper for Linux only; the macOS helper ships in a later release',
    next: 'set MACPILOT_HELPER_PATH to a helper binary that speaks the macpilot helper protocol',
  });
}
