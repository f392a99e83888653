/** Window facts read with the X11 command-line tools (xprop, xwininfo), independently of macpilot. */
import { execFileSync } from 'node:child_process';

const run = (env: Record<string, string>, command: string, args: string[]) =>
  execFileSync(command, args, { env, encoding: 'utf8' });

const field = (out: string, label: string): number => {
  const match = new RegExp(`${label}:\\s+(-?\\d+)`).exec(out);
  if (!match?.[1]) throw new Error(`no "${label}" in:\n${out}`);
  return Number(match[1]);
};

/**
 * The rectangle of the window manager's frame around a client window, as xwininfo reports the frame window
 * (the client's parent under a reparenting window manager).
 */
export function frameGeometry(env: Record<string, string>, id: string) {
  const tree = run(env, 'xwininfo', ['-children', '-id', id]);
  const parent = /Parent window id: (0x[0-9a-f]+)/.exec(tree)?.[1];
  if (!parent) throw new Error(`no parent window in:\n${tree}`);
  const info = run(env, 'xwininfo', ['-id', parent]);
  return {
    x: field(info, 'Absolute upper-left X'),
    y: field(info, 'Absolute upper-left Y'),
    width: field(info, 'Width'),
    height: field(info, 'Height'),
  };
}

/** The atom names in a window's _NET_WM_STATE. */
export function netWmState(env: Record<string, string>, id: string): string[] {
  const out = run(env, 'xprop', ['-id', id, '_NET_WM_STATE']);
  return out.includes('=')
    ? (out.split('=')[1] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** The X id of the active window, in decimal, or undefined. */
export function activeWindow(env: Record<string, string>): string | undefined {
  const out = run(env, 'xprop', ['-root', '_NET_ACTIVE_WINDOW']);
  const hex = /window id # (0x[0-9a-f]+)/.exec(out)?.[1];
  return hex && Number(hex) !== 0 ? String(Number(hex)) : undefined;
}

/** The managed client window of a pid, in decimal, and its rectangle as `xwininfo -frame` reports it. */
export function windowOfPid(
  env: Record<string, string>,
  pid: number,
): { id: string; frame: { x: number; y: number; width: number; height: number } } | undefined {
  const id = clientList(env).find((w) => run(env, 'xprop', ['-id', w, '_NET_WM_PID']).includes(`= ${pid}`));
  if (!id) return undefined;
  const info = run(env, 'xwininfo', ['-frame', '-id', id]);
  return {
    id,
    frame: {
      x: field(info, 'Absolute upper-left X'),
      y: field(info, 'Absolute upper-left Y'),
      width: field(info, 'Width'),
      height: field(info, 'Height'),
    },
  };
}

/** The managed client windows, in decimal. */
export function clientList(env: Record<string, string>): string[] {
  const out = run(env, 'xprop', ['-root', '_NET_CLIENT_LIST']);
  return [...out.matchAll(/0x[0-9a-f]+/g)].map((m) => String(Number(m[0])));
}

/**
 * Has the X server close the connection of the client that owns the clipboard (xkill), as the server does to a
 * client whose request it cannot parse. Returns the owner window's id.
 */
export async function killClipboardOwner(env: Record<string, string>): Promise<number> {
  const { createClient } = await import('x11');
  const owner = await new Promise<number>((resolve, reject) => {
    const client = createClient({ display: env.DISPLAY }, (error, display) => {
      if (error) return reject(error);
      const x = display.client;
      x.InternAtom(false, 'CLIPBOARD', (atomError, atom) => {
        if (atomError) return reject(atomError);
        x.GetSelectionOwner(atom, (ownerError, window) => {
          x.close();
          if (ownerError) reject(ownerError);
          else resolve(window);
        });
      });
    });
    client.on('error', reject);
  });
  if (owner === 0) throw new Error('nothing owns the clipboard');
  run(env, 'xkill', ['-id', String(owner)]);
  return owner;
}

/**
 * Asks the window manager to keep a window above the others (_NET_WM_STATE_ABOVE, as a window that keeps
 * itself on top does); answers once the window's state says so.
 */
export async function keepAbove(env: Record<string, string>, id: string): Promise<void> {
  const { createClient } = await import('x11');
  await new Promise<void>((resolve, reject) => {
    const client = createClient({ display: env.DISPLAY }, (error, display) => {
      if (error) return reject(error);
      const x = display.client;
      const root = display.screen[0]?.root ?? 0;
      x.InternAtom(false, '_NET_WM_STATE', (stateError, state) => {
        if (stateError) return reject(stateError);
        x.InternAtom(false, '_NET_WM_STATE_ABOVE', (aboveError, above) => {
          if (aboveError) return reject(aboveError);
          // _NET_WM_STATE_ADD of ABOVE, from an application (source 1).
          x.SendClientMessage(root, Number(id), state, 32, [1, above, 0, 1, 0]);
          // A round trip: the message has reached the server once this answers.
          x.InternAtom(false, '_NET_WM_STATE', () => {
            x.close();
            resolve();
          });
        });
      });
    });
    client.on('error', reject);
  });
  const deadline = Date.now() + 5_000;
  while (!netWmState(env, id).includes('_NET_WM_STATE_ABOVE')) {
    if (Date.now() > deadline) throw new Error(`window ${id} was not kept above`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
