/**
 * The clipboard on a Wayland compositor with the data-control protocol (wlroots, KWin), through wl-clipboard: wl-paste
 * reads it, wl-copy serves a text from a process of its own until another client takes the clipboard, and
 * `wl-paste --watch` says when it changes (only that it changed leaves the helper, never what it holds).
 */
import { spawn } from 'node:child_process';
import { HelperErrorCode, type Result } from '../../../../helper-client/protocol.js';
import { oncePer } from '../once.js';
import { until } from '../until.js';
import { HelperFailure } from '../../errors.js';
import type { Session } from '../session.js';
import { runTool, runToolOk } from './tools.js';

/** How long a new owner (wl-copy's server, GNOME Shell) gets to hold the text given. */
const OWNER_WAIT_MS = 2000;
/** How long wl-paste gets to list what the clipboard offers before it is taken as empty. */
const EMPTY_WAIT_MS = 1000;
const TEXT_TYPES = /^(text\/plain(;charset=utf-8)?|UTF8_STRING|STRING|TEXT)$/i;

export async function read(session: Session): Promise<Result<'clipboard.read'>> {
  // KWin (5.27) announces no selection while the clipboard is empty, and wl-paste waits for one forever.
  const listed = await runTool('wl-paste', ['--list-types'], session.env, {
    signal: AbortSignal.timeout(EMPTY_WAIT_MS),
  }).catch((error: unknown) => {
    if (error instanceof Error && error.name === 'TimeoutError') return undefined;
    throw error;
  });
  // wl-paste exits 1 ("Nothing is copied") when the clipboard is empty.
  if (!listed || listed.code !== 0) return { types: [] };
  const types = listed.stdout.toString('utf8').split('\n').filter(Boolean);
  if (!types.some((t) => TEXT_TYPES.test(t))) return { types };
  const text = await runToolOk(
    'wl-paste',
    ['--no-newline', '--type', 'text/plain;charset=utf-8'],
    session.env,
  ).catch(() => runToolOk('wl-paste', ['--no-newline', '--type', 'text'], session.env));
  return { text: text.toString('utf8'), types };
}

export async function write(session: Session, text: string): Promise<Result<'clipboard.write'>> {
  // wl-copy forks a server for the text and exits, at times before the compositor has made that server the
  // clipboard's owner: the answer waits until the clipboard reads back the text.
  await runToolOk('wl-copy', ['--type', 'text/plain;charset=utf-8'], session.env, {
    input: text,
    serves: true,
  });
  await untilHeld(() => read(session), text);
  return {};
}

/** Answers once the clipboard reads back `text`; fails after OWNER_WAIT_MS, saying so. */
export async function untilHeld(
  readBack: () => Promise<Result<'clipboard.read'>>,
  text: string,
): Promise<void> {
  if (!(await until(async () => (await readBack()).text === text, OWNER_WAIT_MS))) {
    throw new HelperFailure(
      HelperErrorCode.Failed,
      `the clipboard did not take the text within ${OWNER_WAIT_MS} ms`,
      'try again; another app may be taking the clipboard at the same time',
    );
  }
}

export async function clear(session: Session): Promise<Result<'clipboard.clear'>> {
  await runToolOk('wl-copy', ['--clear'], session.env, { serves: true });
  return {};
}

const watching = new WeakMap<Session, Promise<void>>();

export async function watch(session: Session): Promise<Record<string, never>> {
  await oncePer(watching, session, async () => {
    // Each change runs `echo` under wl-paste: a line on its stdout says the clipboard changed.
    const watcher = spawn('wl-paste', ['--watch', 'echo'], {
      env: session.env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    watcher.on('error', () => {});
    let first = true;
    watcher.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const changes = chunk.split('\n').length - 1;
      for (let i = 0; i < changes; i++) {
        // The watch reports what the clipboard holds when it starts: that is no change.
        if (first) first = false;
        else session.notify('clipboard.changed', {});
      }
    });
    session.onClose(() => watcher.kill());
  });
  return {};
}
