/**
 * A password manager's stand-in on the X11 test desktop: zenity under a name of its own (keepassxc, which the
 * default app lists hide), its entry holding a secret that the person copies (Ctrl+A, Ctrl+C through xdotool).
 */
import { copyFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Processes, Started } from './processes.js';
import { temporaryFolder } from './temp.js';
import { eventually } from './text.js';
import { windowOfPid } from './xwindows.js';

/** Starts the vault and copies `secret` in it, as the person does; resolves once the clipboard holds it. */
export async function copiedInVault(
  env: Record<string, string>,
  processes: Processes,
  secret: string,
  name = 'keepassxc',
): Promise<Started> {
  const program = join(temporaryFolder('macpilot-vault-'), name);
  copyFileSync('/usr/bin/zenity', program);
  const vault = processes.start(program, ['--entry', '--title', `${name} vault`, '--entry-text', secret]);
  const window = await eventually('the vault window', async () => windowOfPid(env, vault.pid));
  execFileSync('xdotool', ['windowactivate', '--sync', window.id, 'key', 'ctrl+a', 'ctrl+c'], { env });
  await eventually('the secret on the clipboard', async () =>
    execFileSync('xclip', ['-o', '-selection', 'clipboard'], { env }).toString() === secret
      ? true
      : undefined,
  );
  return vault;
}
