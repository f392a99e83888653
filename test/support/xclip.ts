/** The clipboard as xclip, the usual command-line peer, reads and owns it: a check independent of macpilot. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Processes } from './processes.js';
import { eventually } from './text.js';

export function xclipOn(env: Record<string, string>, processes: Processes) {
  /**
   * What xclip reads from the clipboard (one-shot), as bytes; throws when nothing offers that target, or when the
   * read takes over 10 s. Once, an xclip -o of a 1.15 MB text owned by xclip -i (an INCR transfer), made while
   * macpilot's clipboard history read the same change, waited forever; the read is synchronous, so it blocked the
   * test file's event loop past every timeout. With the limit the test fails with a reason instead.
   */
  const out = (target?: string): Buffer =>
    execFileSync('xclip', ['-o', '-selection', 'clipboard', ...(target ? ['-t', target] : [])], {
      env,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 10_000,
    });

  /** xclip owns the clipboard with these contents (read back through xclip) until processes stops it. */
  const owns = async (contents: string | Buffer, target?: string): Promise<void> => {
    const folder = mkdtempSync(join(tmpdir(), 'macpilot-xclip-'));
    try {
      const file = join(folder, 'contents');
      writeFileSync(file, contents);
      processes.start('xclip', [
        '-quiet',
        '-selection',
        'clipboard',
        ...(target ? ['-t', target] : []),
        '-i',
        file,
      ]);
      // The contents, not just a target on offer: a previous owner may offer the same target.
      const expected = Buffer.from(contents);
      await eventually('xclip to own the clipboard', async () =>
        out(target).equals(expected) ? true : undefined,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };

  return { out, owns };
}

/**
 * The pids of macpilot's clipboard keepers on this desktop: the processes an exiting helper leaves holding the
 * text it owned (their environment says so). Not started by a test, so each test that makes one stops it.
 */
export function clipboardKeepers(env: Record<string, string>): number[] {
  return keepersOn(env);
}

/** Resolves once no keeper holds this desktop's clipboard (another test file's may, until something is copied). */
export const noKeepers = (env: Record<string, string>): Promise<true> =>
  eventually('no clipboard keeper', async () => (keepersOn(env).length === 0 ? true : undefined));

function keepersOn(env: Record<string, string>): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        return environ.includes('MACPILOT_CLIPBOARD_KEEPER=1') && environ.includes(`DISPLAY=${env.DISPLAY}`);
      } catch {
        return false; // gone, or not ours to read
      }
    })
    .map(Number);
}
