/**
 * Starts one headless KWin desktop for the KDE suite (inject('kdeEnv')). A missing Debian package fails
 * the run and names the install command.
 */
import 'vitest';
import type { TestProject } from 'vitest/node';
import { type Desktop, startDesktop } from '../../scripts/desktop.js';
import { testEnv } from './desktop.js';

let desktop: Desktop | undefined;

export async function setup(project: TestProject): Promise<void> {
  desktop = await startDesktop({ session: 'kde' });
  project.provide('kdeEnv', testEnv(desktop));
}

export async function teardown(): Promise<void> {
  await desktop?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    kdeEnv: Record<string, string>;
  }
}
