/**
 * Starts one headless sway desktop for the Wayland suite (inject('swayEnv')). A missing Debian package fails the
 * run and names the install command.
 */
import 'vitest';
import type { TestProject } from 'vitest/node';
import { type Desktop, startDesktop } from '../../scripts/desktop.js';
import { testEnv } from './desktop.js';

let desktop: Desktop | undefined;

export async function setup(project: TestProject): Promise<void> {
  desktop = await startDesktop({ session: 'sway' });
  project.provide('swayEnv', testEnv(desktop));
}

export async function teardown(): Promise<void> {
  await desktop?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    swayEnv: Record<string, string>;
  }
}
