/** Which helper this machine runs, and how to start it. */
import { fileURLToPath } from 'node:url';
import { MacpilotError } from '../errors.js';
import type { HelperCommand } from '../helper/client.js';

/** dist/ holds the compiled Linux helper, whether this module runs from src/ (tests) or dist/. */
const LINUX_HELPER = fileURLToPath(new URL('../../dist/platforms/linux/main.js', import.meta.url));

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
