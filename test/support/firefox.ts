/** Debian's Firefox ESR as the browser tests start it: a profile of its own, without first-run pages or prompts. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Processes, Started } from './processes.js';

const PREFERENCES = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.aboutwelcome.enabled': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'app.update.auto': false,
  'browser.tabs.warnOnClose': false,
};

export function startFirefox(processes: Processes, profile: string, url: string): Started {
  mkdirSync(profile, { recursive: true });
  const lines = Object.entries(PREFERENCES).map(
    ([key, value]) => `user_pref(${JSON.stringify(key)}, ${JSON.stringify(value)});`,
  );
  writeFileSync(join(profile, 'user.js'), `${lines.join('\n')}\n`);
  return processes.start('firefox-esr', ['--no-remote', '--new-instance', '--profile', profile, url]);
}
