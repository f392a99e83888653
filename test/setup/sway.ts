/**
 * Starts one headless sway desktop for the Wayland suite (inject('swayEnv')). A missing Debian package fails the
 * run and names the install command.
 */
import 'vitest';
import type { TestProject } from 'vitest/node';
import { type Desktop, startDesktop } from '../../scripts/desktop.js';

let desktop: Desktop | undefined;

export async function setup(project: TestProject): Promise<void> {
  desktop = await startDesktop({ session: 'sway' });
  project.provide('swayEnv', {
    ...(desktop.env as Record<string, string>),
    MACPILOT_CONSENT: 'allow',
    MACPILOT_RATE_LIMITS: 'calls_per_second=1000,calls_per_minute=100000,writes_per_second=1000',
  });
}

export async function teardown(): Promise<void> {
  await desktop?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    swayEnv: Record<string, string>;
  }
}
