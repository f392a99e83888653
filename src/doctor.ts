/**
 * `macpilot doctor`: starts the helper as the server would, asks it what this machine allows (system.hello) and
 * prints each capability with the exact fix for what is missing. Exit code 0 when everything is available.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from './config.js';
import { controlFolder } from './control.js';
import { MacpilotError } from './errors.js';
import { type Hello, HelperClient, type HelperCommand } from './helper-client/client.js';
import { createLogger } from './log.js';
import { helperFor } from './platforms/helper-command.js';
import { platformServiceChecks } from './platforms/index.js';
import { PERSON_QUIET_MS } from './engine/features/input.js';
import { appPolicyOf } from './policy/apps.js';
import { VERSION } from './version.js';

/** What macpilot needs; `recording` is optional (only start_recording uses it) and reported apart. */
type CapabilityName = Exclude<keyof Hello['capabilities'], 'recording'>;

const LABELS: Record<CapabilityName, string> = {
  accessibility: 'accessibility',
  display: 'display',
  input: 'input',
  screenCapture: 'screen capture',
};

const PRIVACY = 'System Settings > Privacy & Security';
const TURN_ON =
  'turn on "macpilot Helper" (not listed? click + and choose ' +
  '~/Library/Application Support/macpilot/macpilot Helper.app), then run `macpilot doctor` again; if your MCP ' +
  'client or terminal asks instead, see "Permissions went to my MCP client" in docs/macos.md';

/** What to do about a missing capability, per platform. */
export const FIXES: Record<Hello['platform'], Record<CapabilityName, string>> = {
  darwin: {
    accessibility: `open ${PRIVACY} > Accessibility and ${TURN_ON}`,
    input: `synthetic input is allowed under ${PRIVACY} > Accessibility: ${TURN_ON}`,
    screenCapture:
      `open ${PRIVACY} > Screen & System Audio Recording (called Screen Recording before macOS 15) and ` +
      `${TURN_ON}; restart your MCP client afterwards, macOS applies this grant to new processes only`,
    display:
      'run macpilot in a logged-in graphical session (not over plain SSH or as a launch daemon): macOS gives ' +
      'processes outside one no display',
  },
  linux: {
    accessibility:
      'run macpilot inside the desktop session (DBUS_SESSION_BUS_ADDRESS set) with the AT-SPI bus installed ' +
      '(`sudo apt-get install at-spi2-core`); unset NO_AT_BRIDGE and GTK_A11Y for the apps you want to drive',
    display:
      'set DISPLAY to your X display (for example DISPLAY=:0); on Wayland, macpilot drives sway (WAYLAND_DISPLAY ' +
      'and SWAYSOCK set), and in other Wayland sessions the apps run under XWayland (docs/linux-sessions.md)',
    input:
      "macpilot types and clicks through the X server's XTEST extension: set DISPLAY to an X server that has " +
      'it (Xorg, Xvfb and XWayland do)',
    screenCapture:
      'set DISPLAY to your X display (for example DISPLAY=:0): screenshots are read from the X server',
  },
};

/** How to allow recording a person's input, which only start_recording needs. */
export const RECORDING_FIXES: Record<Hello['platform'], string> = {
  darwin: `open ${PRIVACY} > Input Monitoring and ${TURN_ON}`,
  linux:
    'use an X server with the RECORD extension (Xorg and Xvfb have it unless started with -extension RECORD)',
};

/** The file a person would look for: the script for a Node helper, else the executable. */
const helperFile = (command: HelperCommand) => command.args[0] ?? command.command;

/**
 * Where the audit log goes, and who said so; a folder that is not there yet is created at the first entry.
 * `problem`: why no entry could be written there (the nearest folder that exists is not writable, the file is not).
 */
function auditLog(config: Config): { line: string; problem?: string } {
  const setBy = config.origins.auditLog.where;
  if (config.auditLog === undefined)
    return { line: `audit log: off (${setBy}): entries go to the MCP client's log only` };
  const file = config.auditLog;
  let folder = dirname(file);
  const created = existsSync(folder) ? '' : `; its folder ${folder} is created at the first entry`;
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  const target = existsSync(file) ? file : folder;
  try {
    accessSync(target, constants.W_OK);
  } catch {
    const problem = `${target} is not writable: no entry can be written`;
    return { line: `audit log: ${file} (${setBy}): NOT writable (${problem}); give another path`, problem };
  }
  return { line: `audit log: ${file} (${setBy})${created}` };
}

export async function doctor(config: Config, write: (line: string) => void): Promise<number> {
  write(`macpilot ${VERSION} doctor (${process.platform}, Node ${process.versions.node})`);
  const command = helperFor(config);
  // What the helper says on stderr (on macOS: whether it took its own permission identity) is part of the report.
  const said: string[] = [];
  const client = new HelperClient({
    helper: command,
    log: createLogger('info', (line) => said.push(line.trim())),
  });
  let hello: Hello;
  let personFirst: { watching: boolean; why?: string } | undefined;
  const origin = config.helperPath ? ` (from ${config.origins.helperPath.where})` : '';
  try {
    hello = await client.hello();
    if (config.personFirst) {
      personFirst = await client
        .call('input.personFirst', { on: true, quietMs: PERSON_QUIET_MS })
        .catch((error: unknown) => ({ watching: false, why: (error as Error).message }));
    }
  } catch (error) {
    await client.close();
    write(`helper: ${helperFile(command)}${origin}: could not start`);
    write(
      error instanceof MacpilotError
        ? error.render()
        : `  ${(error as Error).message.replace('system.hello', 'its handshake')}`,
    );
    for (const line of helperSaid(said)) write(`  it said: ${line}`);
    write(
      config.helperPath
        ? `  how: check that ${config.origins.helperPath.where} names macpilot's helper, or unset it to use the one macpilot comes with`
        : '  how: reinstall macpilot (the helper comes with it), then run `macpilot doctor` again',
    );
    // The settings are checked all the same: they do not need the helper.
    const missing = ['helper', ...settingsChecks(config, write)];
    write(`Missing: ${missing.join(', ')}. Fix as shown, then run \`macpilot doctor\` again.`);
    return 1;
  }
  await client.close();
  for (const line of helperSaid(said)) write(`helper said: ${line}`);
  write(
    `helper: ${helperFile(command)}${origin}, version ${hello.helperVersion}, protocol ${hello.protocolVersion}`,
  );

  const missing: string[] = [];
  for (const [name, label] of Object.entries(LABELS) as [CapabilityName, string][]) {
    const capability = hello.capabilities[name];
    write(`${label}: ${capability.available ? 'available' : 'MISSING'} (${capability.detail})`);
    if (!capability.available) {
      missing.push(label);
      write(`  fix: ${FIXES[hello.platform][name]}`);
    }
  }
  const recording = hello.capabilities.recording;
  if (recording) {
    write(
      `recording (only an agent's recording of your input uses it): ${recording.available ? 'available' : 'not available'} (${recording.detail})`,
    );
    if (!recording.available) write(`  how: ${RECORDING_FIXES[hello.platform]}`);
  }
  const setBy = config.origins.personFirst.where;
  if (!personFirst) {
    write(`person first: off (${setBy}): your own mouse and keyboard input does not stop an agent's`);
  } else if (personFirst.watching) {
    write(`person first: on (${setBy}): your own mouse and keyboard input stops an agent's`);
  } else {
    write(
      `person first: on (${setBy}), but NOT KEPT: ${personFirst.why ?? 'the helper cannot hear your input'}`,
    );
    missing.push('person first');
  }
  missing.push(...settingsChecks(config, write));
  const optional = platformServiceChecks();
  const toolsets = [...new Set(optional.flatMap((service) => service.toolsets))];
  const named =
    toolsets.length > 1 ? `${toolsets.slice(0, -1).join(', ')} and ${toolsets.at(-1)}` : toolsets[0];
  if (named !== undefined) write(`Optional, for the ${named} toolsets:`);
  for (const service of optional) {
    const result = await service.check();
    write(`${service.label}: ${result.available ? 'available' : 'not available'} (${result.detail})`);
    if (!result.available) write(`  how: ${result.how}`);
  }
  write(
    missing.length === 0
      ? 'Everything macpilot needs is available.'
      : `Missing: ${missing.join(', ')}. Fix as shown, then run \`macpilot doctor\` again.`,
  );
  return missing.length === 0 ? 0 : 1;
}

/** What the helper itself wrote on stderr, from the client's log lines (its own notes about the helper left out). */
const helperSaid = (lines: readonly string[]): string[] =>
  lines.flatMap((line) => /^\[macpilot\] \w+: helper: (.*)$/.exec(line)?.[1] ?? []);

/** The audit log's and the kill switch's lines; what is missing of them. */
function settingsChecks(config: Config, write: (line: string) => void): string[] {
  const missing: string[] = [];
  const audit = auditLog(config);
  write(audit.line);
  if (audit.problem) missing.push('audit log');
  write(`app lists: ${appPolicyOf(config).describe()}`);
  try {
    write(`kill switch: ${controlFolder()} (\`macpilot stop\` reaches the servers that listen there)`);
  } catch (error) {
    write(
      `kill switch: NOT usable: ${error instanceof MacpilotError ? error.renderForPerson() : String(error)}`,
    );
    missing.push('kill switch');
  }
  return missing;
}
