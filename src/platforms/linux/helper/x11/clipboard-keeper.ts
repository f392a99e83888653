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
/**
 * How long an exiting helper waits for its keeper to own the clipboard: with the release of held input, which
 * runs alongside, within the 2 s the server gives an exiting helper before it ends it.
 */
const HAND_OFF_MS = 1500;

/** What the keeper reads first, on a line of its own: whose clipboard it takes over, and the text's size. */
interface Handed {
  /** The helper's window that owned the clipboard. */
  owner: number;
  bytes: number;
}

/** Called as the helper exits: a text it still owns goes on in a keeper, which owns it before this returns. */
export async function handOffClipboard(session: Session): Promise<void> {
  const clipboard = await existingClipboard(session);
  const text = clipboard?.held;
  // An empty text is no copy to keep: with no owner, the clipboard is as empty.
  if (!clipboard || text === undefined || text === '') return;
  const keeper = spawn(process.execPath, [...process.execArgv, process.argv[1] ?? ''], {
    detached: true,
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, [KEEPER_SETTING]: '1' },
  });
  keeper.once('error', () => {});
  keeper.stdin.on('error', () => {});
  const handed: Handed = { owner: clipboard.ownWindow, bytes: Buffer.byteLength(text) };
  keeper.stdin.end(`${JSON.stringify(handed)}\n${text}`);
  let said = '';
  keeper.stdout.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  await Promise.race([once(keeper.stdout, 'end').catch(() => {}), sleep(HAND_OFF_MS)]);
  keeper.stdout.destroy();
  keeper.unref();
  if (said !== OWNING) {
    process.stderr.write(
      '[macpilot-helper] the clipboard keeper did not say it owns the clipboard in time\n',
    );
  }
}

/**
 * The keeper: owns the clipboard with the text on stdin until another client takes it or the display ends. A
 * text cut short (the helper was ended while it wrote) is not kept, nor one another client copied over meanwhile.
 */
export async function keepClipboard(): Promise<void> {
  delete process.env[KEEPER_SETTING];
  // The helper stops listening after a while: an answer it no longer reads is no reason to stop.
  process.stdout.on('error', () => {});
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const input = Buffer.concat(chunks);
  const newline = input.indexOf('\n');
  if (newline < 0) process.exit(1);
  const handed = JSON.parse(input.subarray(0, newline).toString('utf8')) as Handed;
  const bytes = input.subarray(newline + 1);
  if (bytes.length !== handed.bytes) process.exit(1);
  const x = await X11.connect(process.env.DISPLAY ?? '');
  const clipboard = await Clipboard.create(x);
  const done = () => {
    x.close();
    process.exit(0);
  };
  x.onClose(done);
  // The helper's window, or none once the helper is gone: anyone else copied since, and theirs stays.
  const owner = await clipboard.currentOwner();
  if (owner !== handed.owner && owner !== 0) done();
  clipboard.onLost(done);
  await clipboard.write(bytes.toString('utf8'));
  process.stdout.end(OWNING);
}
