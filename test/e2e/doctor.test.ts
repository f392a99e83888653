/** `macpilot doctor` on the headless desktop, and without one: each capability, the fix, the exit code. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, test } from 'vitest';
import { CLI } from '../support/mcp.js';

const env = inject('desktopEnv');

async function doctor(environment: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'doctor'], {
      env: environment,
      timeout: 60_000,
    });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

describe('macpilot doctor', () => {
  test('on the desktop: every capability available, the helper named with its version, exit code 0', async () => {
    const { code, output } = await doctor(env);
    expect(output).toMatch(/^helper: \S+macpilot-linux-helper\.js, version 0\.\d+\.\d+, protocol \d+$/m);
    for (const label of ['accessibility', 'display', 'input', 'screen capture']) {
      expect(output).toMatch(new RegExp(`^${label}: available \\(.+\\)$`, 'm'));
    }
    expect(output).toContain(`X display ${env.DISPLAY}`);
    expect(output).not.toContain('fix:');
    expect(output).toContain('Everything macpilot needs is available.');
    expect(code).toBe(0);
  });

  test('without DISPLAY or a session bus: each capability missing with its fix, exit code 1', async () => {
    const bare: NodeJS.ProcessEnv = { ...env };
    delete bare.DISPLAY;
    delete bare.DBUS_SESSION_BUS_ADDRESS;
    const { code, output } = await doctor(bare);
    expect(output).toMatch(
      /^accessibility: MISSING \(.*DBUS_SESSION_BUS_ADDRESS.*\)\n {2}fix: .*at-spi2-core/m,
    );
    expect(output).toMatch(/^display: MISSING \(.*DISPLAY.*\)\n {2}fix: set DISPLAY to your X display/m);
    expect(output).toMatch(/^input: MISSING \(.*\)\n {2}fix: .*XTEST/m);
    expect(output).toMatch(/^screen capture: MISSING \(.*\)\n {2}fix: set DISPLAY/m);
    expect(output).toContain('Missing: accessibility, display, input, screen capture.');
    expect(code).toBe(1);
  });
});
