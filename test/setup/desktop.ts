/**
 * Starts one headless desktop for the contract and end-to-end suites and hands its environment to the tests
 * (inject('desktopEnv')). A missing Debian package fails the run and names the install command.
 */
import 'vitest';
import type { TestProject } from 'vitest/node';
import { type Desktop, startDesktop } from '../../scripts/desktop.js';

let desktop: Desktop | undefined;

export async function setup(project: TestProject): Promise<void> {
  desktop = await startDesktop();
  project.provide('desktopEnv', testEnv(desktop));
}

/**
 * A desktop's environment for the tests' servers. The tests' MCP client cannot ask a human, so destructive
 * tools (quit_app, close_window) would be refused; the consent tests (policy-consent.test.ts) set
 * MACPILOT_CONSENT themselves. Tests poll and act faster than an agent, past the default rate limits on a quiet
 * machine; the rate limit tests set their own.
 */
export const testEnv = (started: Desktop): Record<string, string> => ({
  ...(started.env as Record<string, string>),
  MACPILOT_CONSENT: 'allow',
  MACPILOT_RATE_LIMITS: 'calls_per_second=1000,calls_per_minute=100000,writes_per_second=1000',
});

export async function teardown(): Promise<void> {
  await desktop?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    desktopEnv: Record<string, string>;
  }
}
