/**
 * clipboard.watch: the CLIPBOARD selection's changes of owner, from XFIXES, sent to the server as
 * `clipboard.changed`. Only that it changed leaves the helper, never what it holds.
 */
import type * as x11 from 'x11';
import { HelperErrorCode } from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';
import { oncePer } from '../once.js';
import type { Session } from '../session.js';

const watching = new WeakMap<Session, Promise<void>>();

export async function watchClipboard(session: Session): Promise<Record<string, never>> {
  await oncePer(watching, session, () => start(session));
  return {};
}

async function start(session: Session): Promise<void> {
  const x = await session.x11();
  const fixes = await x
    .x<x11.XFixes>((cb) => x.client.require('fixes', cb))
    .catch((error: Error) => {
      throw new HelperFailure(
        HelperErrorCode.NotAvailable,
        `the X server offers no XFIXES extension to watch the clipboard with (${error.message})`,
        'read the clipboard with get_clipboard instead',
      );
    });
  // XFIXES answers nothing until a client has said which version it speaks.
  await x.x((cb) => fixes.QueryVersion(5, 0, cb));
  const clipboard = await x.atom('CLIPBOARD');
  const mask = fixes.SelectionEventMask;
  fixes.SelectSelectionInput(
    x.root,
    clipboard,
    mask.SetSelectionOwner | mask.SelectionWindowDestroy | mask.SelectionClientClose,
  );
  x.client.on('event', (event: unknown) => {
    const notify = event as Partial<x11.XFixesSelectionNotifyEvent>;
    if (notify.name === 'SelectionNotify' && notify.subtype !== undefined && notify.selection === clipboard) {
      session.notify('clipboard.changed', {});
    }
  });
}
