/**
 * Starts one headless GNOME Shell desktop for the GNOME suite (inject('gnomeEnv')). A missing Debian package fails
 * the run and names the install command.
 */
import 'vitest';
import type { TestProject } from 'vitest/node';
import { type Desktop, startDesktop } from '../../scripts/desktop.js';
import { testEnv } from './desktop.js';

let desktop: Desktop | undefined;

export async function setup(project: TestProject): Promise<void> {
  desktop = await startDesktop({ session: 'gnome' });
  project.provide('gnomeEnv', testEnv(desktop));
}

export async function teardown(): Promise<void> {
  await desktop?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    gnomeEnv: Record<string, string>;
  }
}
