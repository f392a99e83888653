/** The MCP Bundle's manifest, made from package.json and the toolsets: `mcpb validate` accepts it. */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { mcpbManifest, type PackageJson } from '../../../scripts/mcpb/manifest.js';
import { DEFAULT_TOOLSETS } from '../../../src/toolsets.js';
import { temporaryFolder } from '../../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

interface Manifest {
  version: string;
  server: { mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  compatibility: { platforms: string[] };
  user_config: Record<string, { default: string }>;
}

async function validate(manifest: unknown): Promise<{ code: number; output: string }> {
  const path = join(temporaryFolder('macpilot-mcpb-manifest-'), 'manifest.json');
  writeFileSync(path, JSON.stringify(manifest, null, 2));
  try {
    const { stdout, stderr } = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'mcpb'), [
      'validate',
      path,
    ]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('mcpb manifest', () => {
  test('mcpb validate passes it, and fails a broken one (the check can fail)', async () => {
    const manifest = mcpbManifest(pkg, 'darwin');
    const valid = await validate(manifest);
    expect(valid.output).toContain('Manifest schema validation passes');
    expect(valid.code).toBe(0);
    const broken = await validate({ ...manifest, compatibility: { platforms: ['darwin', 'haiku'] } });
    expect(broken.code).not.toBe(0);
  }, 30_000);

  test('the server starts as `macpilot serve`, each user setting fills its MACPILOT_ variable, with a default', () => {
    const manifest = mcpbManifest(pkg, 'linux') as unknown as Manifest;
    expect(manifest.version).toBe(pkg.version);
    // One bundle per platform: each carries its platform's native packages only.
    expect(manifest.compatibility.platforms).toEqual(['linux']);
    expect(manifest.server.mcp_config).toEqual({
      command: 'node',
      args: ['${__dirname}/dist/macpilot.js', 'serve'],
      env: {
        MACPILOT_MODE: '${user_config.mode}',
        MACPILOT_TOOLSETS: '${user_config.toolsets}',
        MACPILOT_ALLOW_APPS: '${user_config.allowed_apps}',
        MACPILOT_DENY_APPS: '${user_config.denied_apps}',
        MACPILOT_CONSENT: '${user_config.consent}',
      },
    });
    expect(Object.keys(manifest.user_config)).toEqual([
      'mode',
      'toolsets',
      'allowed_apps',
      'denied_apps',
      'consent',
    ]);
    expect(manifest.user_config.toolsets?.default).toBe(DEFAULT_TOOLSETS.join(','));
    expect(manifest.user_config.mode?.default).toBe('full');
    expect(manifest.user_config.consent?.default).toBe('ask');
  });
});
