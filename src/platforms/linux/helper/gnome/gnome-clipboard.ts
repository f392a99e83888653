/**
 * The clipboard in a GNOME session, through macpilot's GNOME Shell extension: mutter 43 has no data-control
 * protocol, so wl-clipboard would have to take the keyboard focus to set it, which focus-stealing prevention may
 * refuse. Only that it changed leaves the helper, never what it holds.
 */
import type { Result } from '../../../../helper-client/protocol.js';
import { oncePer } from '../once.js';
import type { Session } from '../session.js';
import { untilHeld } from '../wayland/wl-clipboard.js';

export async function read(session: Session): Promise<Result<'clipboard.read'>> {
  const [types, hasText, text] = (await (await session.gnomeShell()).call('ReadClipboard')) as [
    string[],
    boolean,
    string,
  ];
  return hasText ? { text, types } : { types };
}

export async function write(session: Session, text: string): Promise<Result<'clipboard.write'>> {
  await (await session.gnomeShell()).call('WriteClipboard', 's', [text]);
  await untilHeld(() => read(session), text);
  return {};
}

export async function clear(session: Session): Promise<Result<'clipboard.clear'>> {
  await (await session.gnomeShell()).call('ClearClipboard');
  return {};
}

const watching = new WeakMap<Session, Promise<void>>();

export async function watch(session: Session): Promise<Record<string, never>> {
  await oncePer(watching, session, async () => {
    const stop = await (
      await session.gnomeShell()
    ).onClipboardChange(() => session.notify('clipboard.changed', {}));
    session.onClose(stop);
  });
  return {};
}
