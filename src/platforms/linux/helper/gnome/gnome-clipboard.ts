/**
 * The clipboard in a GNOME session, through macpilot's GNOME Shell extension: mutter 43 has no data-control
 * protocol, so wl-clipboard would have to take the keyboard focus to set it, which focus-stealing prevention may
 * refuse. Only that it changed leaves the helper, never what it holds.
 */
import { HelperErrorCode, type Result } from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';
import { oncePer } from '../once.js';
import type { Session } from '../session.js';
import { until } from '../until.js';

/** How long the shell gets to own a text it was given. */
const OWNER_WAIT_MS = 2000;

export async function read(session: Session): Promise<Result<'clipboard.read'>> {
  const [types, hasText, text] = (await (await session.gnome()).windowsCall('ReadClipboard')) as [
    string[],
    boolean,
    string,
  ];
  return hasText ? { text, types } : { types };
}

export async function write(session: Session, text: string): Promise<Result<'clipboard.write'>> {
  await (await session.gnome()).windowsCall('WriteClipboard', 's', [text]);
  if (!(await until(async () => (await read(session)).text === text, OWNER_WAIT_MS))) {
    throw new HelperFailure(
      HelperErrorCode.Failed,
      `the clipboard did not take the text within ${OWNER_WAIT_MS} ms`,
      'try again; another app may be taking the clipboard at the same time',
    );
  }
  return {};
}

export async function clear(session: Session): Promise<Result<'clipboard.clear'>> {
  await (await session.gnome()).windowsCall('ClearClipboard');
  return {};
}

const watching = new WeakMap<Session, Promise<void>>();

export async function watch(session: Session): Promise<Record<string, never>> {
  await oncePer(watching, session, async () => {
    const stop = await (
      await session.gnome()
    ).onClipboardChange(() => session.notify('clipboard.changed', {}));
    session.onClose(stop);
  });
  return {};
}
