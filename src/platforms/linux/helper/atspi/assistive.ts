/**
 * The desktop's accessibility switch (org.a11y.Status IsEnabled on the session bus). Chromium, every Electron app
 * and Firefox build their accessibility tree only when it is on as they start; GTK apps do regardless. macpilot
 * turns it on (MACPILOT_ACCESSIBILITY=on, the default) and leaves a note in the person's state folder, so that
 * MACPILOT_ACCESSIBILITY=leave can turn it off again where macpilot, not the person, turned it on.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Bus } from '../../dbus/bus.js';

/** What the switch was found at, and what macpilot did to it. */
export type AssistiveSwitch =
  | { state: 'on'; by: 'person' | 'macpilot-now' | 'macpilot-before'; since?: string }
  | { state: 'off'; by: 'person' | 'macpilot-restored' }
  | { state: 'unknown'; error: string };

const STATUS = ['org.a11y.Bus', '/org/a11y/bus', 'org.freedesktop.DBus.Properties'] as const;

/** Where macpilot notes that it turned the switch on: the person's state folder (the switch outlives a login). */
export function assistiveNote(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'macpilot', 'accessibility-turned-on');
}

async function isEnabled(bus: Bus): Promise<boolean> {
  const [value] = await bus.call(...STATUS, 'Get', 'ss', ['org.a11y.Status', 'IsEnabled']);
  return value === true;
}

async function setEnabled(bus: Bus, on: boolean): Promise<void> {
  await bus.call(...STATUS, 'Set', 'ssv', ['org.a11y.Status', 'IsEnabled', bus.variant('b', on)]);
}

function noteOf(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || 'an earlier start';
  } catch {
    return undefined;
  }
}

/** Reads the switch and sets it as MACPILOT_ACCESSIBILITY asks; never throws (the tree is read regardless). */
export async function settleAssistiveSwitch(bus: Bus, env: NodeJS.ProcessEnv): Promise<AssistiveSwitch> {
  const use = (env.MACPILOT_ACCESSIBILITY ?? 'on').trim().toLowerCase();
  const file = assistiveNote(env);
  try {
    const since = noteOf(file);
    const on = await isEnabled(bus);
    if (use === 'leave') {
      if (!on || since === undefined)
        return on ? { state: 'on', by: 'person' } : { state: 'off', by: 'person' };
      await setEnabled(bus, false);
      rmSync(file, { force: true });
      return { state: 'off', by: 'macpilot-restored' };
    }
    if (on) {
      return since === undefined
        ? { state: 'on', by: 'person' }
        : { state: 'on', by: 'macpilot-before', since };
    }
    await setEnabled(bus, true);
    const now = new Date().toISOString();
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${now}\n`, { mode: 0o600 });
    return { state: 'on', by: 'macpilot-now', since: now };
  } catch (error) {
    return { state: 'unknown', error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The switch in a sentence for the accessibility capability (doctor prints it), naming where the setting was made
 * and how to change it as the server passed them (MACPILOT_ACCESSIBILITY_SET_BY, MACPILOT_ACCESSIBILITY_LEAVE).
 */
export function describeAssistiveSwitch(found: AssistiveSwitch, env: NodeJS.ProcessEnv = {}): string {
  const browsers = 'browsers and Electron apps started from now on build their trees';
  const setBy = env.MACPILOT_ACCESSIBILITY_SET_BY || 'MACPILOT_ACCESSIBILITY';
  const leave = env.MACPILOT_ACCESSIBILITY_LEAVE || 'MACPILOT_ACCESSIBILITY=leave';
  switch (found.state) {
    case 'unknown':
      return `the accessibility switch (org.a11y.Status) could not be read or set: ${found.error}; browsers and Electron apps may show no tree`;
    case 'off':
      return found.by === 'macpilot-restored'
        ? `accessibility switch turned off again, as the setting "leave" (${setBy}) asks (macpilot had turned it on): browsers and Electron apps started from now on show no tree`
        : `accessibility switch off, left so by the setting "leave" (${setBy}): browsers and Electron apps started from now on show no tree`;
    case 'on':
      if (found.by === 'person') return `accessibility switch on: ${browsers}`;
      return `accessibility switch on, turned on by macpilot (${found.by === 'macpilot-now' ? 'now' : `at ${found.since}`}): ${browsers}; to turn it off again: ${leave}`;
  }
}
