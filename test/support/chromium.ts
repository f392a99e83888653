/** Debian's Chromium as the browser tests start it: as root on a machine without network, a profile of its own. */
import { dirname } from 'node:path';
import type { Processes, Started } from './processes.js';

/**
 * Its temporary files (a folder per run, which a killed Chromium leaves behind) go beside the profile, in the
 * test's own temporary folder, which the test removes.
 */
export function startChromium(processes: Processes, profile: string, url: string): Started {
  return processes.start(
    'chromium',
    [
      '--no-sandbox',
      '--test-type',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--password-store=basic',
      // Its crash handler outlives the browser's process group and kept writing into a profile already removed.
      '--disable-breakpad',
      `--user-data-dir=${profile}`,
      url,
    ],
    { TMPDIR: dirname(profile) },
  );
}
