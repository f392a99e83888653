/**
 * The MCP Bundle's manifest.json, made from package.json and the toolsets of src/toolsets.ts so that it never
 * drifts from what the server does. Its user settings become the MACPILOT_* variables the server reads; each
 * has a default so that a host never passes an unfilled `${user_config.…}` placeholder.
 */
import { CONSENTS } from '../../src/config.js';
import { MODES } from '../../src/modes.js';
import { DEFAULT_TOOLSETS, TOOLSETS } from '../../src/toolsets.js';

export interface PackageJson {
  name: string;
  version: string;
  description: string;
  license?: string;
  author?: string | { name: string; email?: string; url?: string };
  homepage?: string;
  keywords?: string[];
  engines?: { node?: string };
}

/** The settings a user fills in when installing the bundle, and the variable each one sets. */
const USER_CONFIG = {
  mode: {
    env: 'MACPILOT_MODE',
    type: 'string',
    title: 'Mode',
    description: `${MODES.join(', ')}: full runs every enabled tool (asking you before quitting an app, closing a window or clearing the clipboard); safe also asks before any action on something named like delete or remove; read-only only looks`,
    default: 'full',
  },
  toolsets: {
    env: 'MACPILOT_TOOLSETS',
    type: 'string',
    title: 'Toolsets',
    description: `Comma-separated, or "all": ${TOOLSETS.map((t) => `${t.id} (${t.description})`).join('; ')}`,
    default: DEFAULT_TOOLSETS.join(','),
  },
  allowed_apps: {
    env: 'MACPILOT_ALLOW_APPS',
    type: 'string',
    title: 'Allowed apps',
    description:
      'Comma-separated app names or bundle ids; when set, macpilot reads and acts on these apps only',
    default: '',
  },
  denied_apps: {
    env: 'MACPILOT_DENY_APPS',
    type: 'string',
    title: 'Denied apps',
    description:
      'Comma-separated app names or bundle ids macpilot never touches; empty keeps the built-in list ' +
      '(password managers; terminals and system settings are read-only), "none" lifts it',
    default: '',
  },
  consent: {
    env: 'MACPILOT_CONSENT',
    type: 'string',
    title: 'Consent',
    description: `${CONSENTS.join(' or ')}: whether macpilot asks you before a destructive action (in full and safe mode) or lets it run`,
    default: 'ask',
  },
} as const;

const authorOf = (pkg: PackageJson) =>
  typeof pkg.author === 'object' ? pkg.author : { name: pkg.author ?? `${pkg.name} contributors` };

/** The manifest of the bundle for one platform (each bundle carries that platform's native packages only). */
export function mcpbManifest(pkg: PackageJson, platform: 'darwin' | 'linux'): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name: pkg.name,
    display_name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    long_description:
      `${pkg.description} Toolsets: ${TOOLSETS.map((t) => `${t.id} (${t.description})`).join('; ')}. ` +
      'On macOS the first start installs the macpilot Helper app, which asks for the Accessibility and Screen ' +
      'Recording permissions; on Linux it needs an X session with the accessibility bus.',
    author: authorOf(pkg),
    ...(pkg.homepage === undefined ? {} : { homepage: pkg.homepage }),
    license: pkg.license,
    keywords: pkg.keywords ?? ['accessibility', 'automation', 'desktop', 'macos', 'linux'],
    server: {
      type: 'node',
      entry_point: 'dist/macpilot.js',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/dist/macpilot.js', 'serve'],
        env: Object.fromEntries(
          Object.entries(USER_CONFIG).map(([key, setting]) => [setting.env, `\${user_config.${key}}`]),
        ),
      },
    },
    tools_generated: true,
    compatibility: {
      platforms: [platform],
      runtimes: { node: pkg.engines?.node ?? '>=20' },
    },
    user_config: Object.fromEntries(
      Object.entries(USER_CONFIG).map(([key, { env: _env, ...setting }]) => [
        key,
        { ...setting, required: false },
      ]),
    ),
  };
}
