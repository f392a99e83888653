/**
 * What a client runs to start macpilot: the way the user ran this very `macpilot setup`. Through npx the
 * package lives in npm's throwaway cache, so the client runs npx too; anywhere else (a global install, a
 * checkout) the client runs this Node on this package's dist/macpilot.js by absolute path, since apps started
 * from a desktop do not get the terminal's PATH.
 */
import { join, sep } from 'node:path';
import type { Mode } from '../modes.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { ALWAYS_ON, type Toolset, TOOLSET_NAMES } from '../toolsets.js';

export const SERVER_NAME = 'macpilot';

export interface ServerEntry {
  command: string;
  args: string[];
  /** Only the settings the user chose: the rest stays as macpilot's own defaults and config file say. */
  env: Record<string, string>;
}

export interface LaunchSettings {
  mode?: Mode;
  toolsets?: readonly Toolset[];
}

/** Whether the package at `packageRoot` is the copy `npx` (`npm exec`) fetched into its cache. */
export const ranThroughNpx = (packageRoot: string): boolean => packageRoot.split(sep).includes('_npx');

export function serverEntry(
  settings: LaunchSettings,
  packageRoot: string = PACKAGE_ROOT,
  node: string = process.execPath,
): ServerEntry {
  const env: Record<string, string> = {};
  if (settings.mode !== undefined) env.MACPILOT_MODE = settings.mode;
  if (settings.toolsets !== undefined) {
    // As the person wrote them: the toolsets every server serves anyway are not added to their list, and every
    // toolset is "all", which takes in those a later version adds.
    const chosen = settings.toolsets.filter((toolset) => !ALWAYS_ON.includes(toolset));
    const every = TOOLSET_NAMES.every((toolset) => settings.toolsets?.includes(toolset));
    env.MACPILOT_TOOLSETS = every ? 'all' : (chosen.length > 0 ? chosen : settings.toolsets).join(',');
  }
  return ranThroughNpx(packageRoot)
    ? { command: 'npx', args: ['-y', SERVER_NAME, 'serve'], env }
    : { command: node, args: [join(packageRoot, 'dist', 'macpilot.js'), 'serve'], env };
}

/** The settings setup writes as the server's environment, by their variables. */
const SETTING_VARIABLES = { mode: 'MACPILOT_MODE', toolsets: 'MACPILOT_TOOLSETS' } as const;

/**
 * The server entry, with the settings an entry it replaces had and this run did not give: running setup again
 * (after an update, say) never widens what the person had narrowed. Answers the variables kept.
 */
export function keepSettings(
  server: ServerEntry,
  previous: unknown,
): { server: ServerEntry; kept: string[] } {
  const env = (previous as { env?: unknown } | undefined)?.env;
  if (typeof env !== 'object' || env === null) return { server, kept: [] };
  const old = env as Record<string, unknown>;
  const kept = Object.values(SETTING_VARIABLES).filter(
    (name) => server.env[name] === undefined && typeof old[name] === 'string',
  );
  if (kept.length === 0) return { server, kept };
  const added = Object.fromEntries(kept.map((name) => [name, String(old[name])]));
  return { server: { ...server, env: { ...server.env, ...added } }, kept };
}
