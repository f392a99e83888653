/**
 * On X11 the clipboard's text lives in the process that owns it: the helper, gone when the server's session ends
 * or a CLI command finishes. So a helper that exits while it still owns the clipboard hands the text to a keeper:
 * its own script started again, detached, which owns the clipboard until another client takes it (as xclip
 * does), then exits. The text goes over a pipe, never on a command line.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Session } from '../session.js';
import { Clipboard, existingClipboard } from './clipboard.js';
import { X11 } from './ewmh.js';

/** Set in the keeper's environment: it keeps the text on its stdin rather than serving the protocol. */
export const KEEPER_SETTING = 'MACPILOT_CLIPBOARD_KEEPER';
/** The keeper's one line on stdout once it owns the clipboard. */
const OWNING = 'owning\n';
/** How long an exiting helper waits for its keeper to own the clipboard. */
const HAND_OFF_MS = 1500;

/** Called as the helper exits: a text it still owns goes on in a keeper, which owns it before this returns. */
export async function handOffClipboard(session: Session): Promise<void> {
  const text = (await existingClipboard(session))?.held;
  if (text === undefined) return;
  const keeper = spawn(process.execPath, [...process.execArgv, process.argv[1] ?? ''], {
    detached: true,
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, [KEEPER_SETTING]: '1' },
  });
  keeper.once('error', () => {});
  keeper.stdin.on('error', () => {});
  keeper.stdin.end(text);
  let said = '';
  keeper.stdout.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  await Promise.race([once(keeper.stdout, 'end').catch(() => {}), sleep(HAND_OFF_MS)]);
  keeper.stdout.destroy();
  keeper.unref();
  if (said !== OWNING)
    process.stderr.write(
      '[macpilot-helper] the clipboard keeper did not say it owns the clipboard in time\n',
    );
}

/** The keeper: owns the clipboard with the text on stdin until another client takes it or the display ends. */
export async function keepClipboard(): Promise<void> {
  delete process.env[KEEPER_SETTING];
  let text = '';
  for await (const chunk of process.stdin.setEncoding('utf8')) text += chunk as string;
  const x = await X11.connect(process.env.DISPLAY ?? '');
  const clipboard = await Clipboard.create(x);
  const done = () => {
    x.close();
    process.exit(0);
  };
  x.onClose(done);
  clipboard.onLost(done);
  await clipboard.write(text);
  process.stdout.end(OWNING);
}
