/**
 * Which helper this machine runs, and how to start it. Light on purpose: the CLI starts the helper from it
 * before it loads the rest of macpilot.
 */
import { join } from 'node:path';
import { accessibilitySetting, type Config } from '../config.js';
import { MacpilotError } from '../errors.js';
import type { HelperCommand } from '../helper-client/spawn.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { VERSION } from '../version.js';
import { binaryIn, installLocation } from './macos/bundle.js';

/** The bundled Linux helper (scripts/bundle.ts), wherever this module runs from (src/ in tests, or a bundle). */
const LINUX_HELPER = join(PACKAGE_ROOT, 'dist', 'macpilot-linux-helper.js');

/** The helper a process of this configuration starts. */
export function helperFor(
  config: Pick<Config, 'helperPath' | 'portal' | 'accessibility' | 'origins'>,
): HelperCommand {
  return helperCommand({
    helperPath: config.helperPath,
    portal: config.portal,
    accessibility: accessibilitySetting(config),
  });
}

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
        const { ensureHelper } = await import('./macos/install.js');
        await ensureHelper({ version: VERSION, packageRoot: PACKAGE_ROOT, signal });
      },
    };
  }
  throw new MacpilotError({
    what: `No helper for ${platform}`,
    why: 'macpilot has helpers for Linux and macOS only',
    next: 'set MACPILOT_HELPER_PATH to a helper binary that speaks the macpilot helper protocol',
    kind: 'platform_unsupported',
  });
}
