/**
 * clipboard.owner on X11: the process of the client owning CLIPBOARD or PRIMARY (the text selected last, which a
 * middle click pastes), from the X server's X-Resource extension, which knows the pid of each local client.
 */
import type * as x11 from 'x11';
import type { Params, Result } from '../../../../helper-client/protocol.js';
import type { Session } from '../session.js';

export async function selectionOwner(
  session: Session,
  { selection }: Params<'clipboard.owner'>,
): Promise<Result<'clipboard.owner'>> {
  const x = await session.x11();
  const atom = await x.atom(selection === 'primary' ? 'PRIMARY' : 'CLIPBOARD');
  const owner = await x.x<number>((cb) => x.client.GetSelectionOwner(atom, cb));
  if (owner === 0) return { known: true };
  // Without the extension (a server built without it) or for a remote client, the owner's process is unknown.
  const res = await x.x<x11.XRes>((cb) => x.client.require('res', cb)).catch(() => undefined);
  if (!res) return { known: false };
  const ids = await x
    .x<{ value: number[] }[]>((cb) =>
      res.QueryClientIds([{ client: owner, mask: res.ClientIdMask.LocalClientPID }], cb),
    )
    .catch(() => []);
  const pid = ids.find((id) => id.value.length > 0)?.value[0];
  return pid === undefined ? { known: false } : { known: true, pid };
}
