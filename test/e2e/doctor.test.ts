/** `macpilot doctor` on the headless desktop, and without one: each capability, the fix, the exit code. */
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { startNotificationDaemon, startPulseAudio, withoutAutospawn } from '../support/daemons.js';
import { CLI } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { temporaryFolder } from '../support/temp.js';

const clientDir = temporaryFolder('macpilot-doctor-');
// pactl run by doctor must not start a sound server of its own (it would outlive the test).
const env = withoutAutospawn(inject('desktopEnv'), clientDir);
const processes = new Processes(env);
afterAll(async () => {
  await processes.stopAll();
  rmSync(clientDir, { recursive: true, force: true });
});

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
    // openbox runs, whether or not a window is open: it names its check window on the root.
    expect(output).toMatch(new RegExp(`^display: available \\(X display ${env.DISPLAY}\\)$`, 'm'));
    expect(output).toMatch(
      /^recording \(only an agent's recording of your input uses it\): available \(.*X RECORD extension\)$/m,
    );
    expect(output).toContain('Optional, for the system, finder and screen toolsets:');
    expect(output).toMatch(
      /^OCR: available \(tesseract\.js with Debian's tessdata_fast English model \(.+\)\)$/m,
    );
    expect(output).not.toContain('fix:');
    expect(output).toMatch(
      /^person first: off \(the default of MACPILOT_PERSON_FIRST\): your own mouse and keyboard input does not stop an agent's$/m,
    );
    expect(output).toContain('Everything macpilot needs is available.');
    expect(code).toBe(0);
    // Asked for, it is asked of the helper, which hears the desk's devices here (XInput 2).
    const on = await doctor({ ...env, MACPILOT_PERSON_FIRST: 'on' });
    expect(on.output).toMatch(
      /^person first: on \(the environment variable MACPILOT_PERSON_FIRST\): your own mouse and keyboard input stops an agent's$/m,
    );
    expect(on.code).toBe(0);
  });

  test('the optional services: what is missing says how to get it and does not fail doctor; then available', async () => {
    const before = await doctor(env);
    expect(before.output).toMatch(
      /^notifications: not available \(nothing owns or can start org\.freedesktop\.Notifications on the session bus\)\n {2}how: .*notification-daemon/m,
    );
    expect(before.output).toMatch(
      /^sound: not available \(no PulseAudio or PipeWire server runs.*\)\n {2}how: /m,
    );
    // Thunar's D-Bus service file is installed: the bus can start it.
    expect(before.output).toMatch(
      /^file manager: available \(D-Bus starts a provider of org\.freedesktop\.FileManager1 on first use\)$/m,
    );
    expect(before.code).toBe(0);

    await startNotificationDaemon(processes, env);
    await startPulseAudio(processes, env);
    const after = await doctor(env);
    expect(after.output).toMatch(
      /^notifications: available \(notification-daemon owns org\.freedesktop\.Notifications\)$/m,
    );
    expect(after.output).toMatch(/^sound: available \(pulseaudio, output macpilot_null\)$/m);
    expect(after.code).toBe(0);
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
    // Recording is optional: reported with how to get it, not counted as missing.
    expect(output).toMatch(
      /^recording \(only an agent's recording of your input uses it\): not available \(.*\)\n {2}how: .*RECORD/m,
    );
    expect(output).toContain('Missing: accessibility, display, input, screen capture.');
    expect(code).toBe(1);
  });

  test('DISPLAY naming a display where no X server runs says so, not the TCP error the X library ends with', async () => {
    let free = 90;
    while (existsSync(`/tmp/.X11-unix/X${free}`)) free += 1;
    const { code, output } = await doctor({ ...env, DISPLAY: `:${free}` });
    expect(output).toContain(
      `display: MISSING (cannot connect to the X display :${free}: no X server runs on it: /tmp/.X11-unix/X${free} does not exist)`,
    );
    expect(output).not.toContain('ECONNREFUSED');
    expect(code).toBe(1);
  });
});
