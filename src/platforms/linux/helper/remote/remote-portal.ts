/**
 * The RemoteDesktop portal (xdg-desktop-portal, org.freedesktop.portal.RemoteDesktop with ScreenCast sources):
 * the desktop-neutral route to keys, the pointer and the screen in a Wayland session, which the person allows in
 * the portal's dialog. Every request answers through a Request object's Response signal; the session lives while
 * this connection holds it. A portal of version 2 or later keeps the person's answer: its restore token is saved
 * under the user's config folder and offered the next time, so the dialog is not shown again. Version 1 (Debian
 * 12's xdg-desktop-portal 1.16) cannot keep it: the dialog is shown once per helper.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Bounds, HelperErrorCode } from '../../../../helper-client/protocol.js';
import type { Bus } from '../../dbus/bus.js';
import { HelperFailure } from '../../errors.js';

const PORTAL = 'org.freedesktop.portal.Desktop';
const PORTAL_PATH = '/org/freedesktop/portal/desktop';
const REMOTE_DESKTOP = 'org.freedesktop.portal.RemoteDesktop';
const SCREEN_CAST = 'org.freedesktop.portal.ScreenCast';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
/** Device types: keyboard and pointer. */
const KEYBOARD = 1;
const POINTER = 2;
/** Source type: monitors. */
const MONITOR = 1;
/** Cursor mode: hidden (an X11 capture has no pointer either). */
const CURSOR_HIDDEN = 1;
/** Persist mode: until the person revokes it. */
const PERSIST_UNTIL_REVOKED = 2;
/** How long the portal gets to answer a request that shows nothing (creating the session, selecting). */
const QUIET_REQUEST_MS = 10_000;

/** A stream the portal started: its PipeWire node, and where its monitor is in the layout. */
export interface PortalStream {
  node: number;
  bounds: Bounds;
}

export interface PortalSession {
  handle: string;
  streams: PortalStream[];
  keyboard: boolean;
  pointer: boolean;
}

const notAvailable = (what: string, next: string) =>
  new HelperFailure(HelperErrorCode.NotAvailable, what, next);

/** Where the restore token is kept: it lets the portal start the next session without asking again. */
export function restoreTokenFile(env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'macpilot', 'portal-restore-token');
}

const readToken = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
};

const writeToken = (file: string, token: string): void => {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
};

/** Whether the session bus has the portal, and its RemoteDesktop version (0: none). */
export async function remoteDesktopVersion(bus: Bus): Promise<number> {
  try {
    const [version] = await bus.call(PORTAL, PORTAL_PATH, PROPERTIES, 'Get', 'ss', [
      REMOTE_DESKTOP,
      'version',
    ]);
    return Number(version);
  } catch {
    return 0;
  }
}

export class RemotePortal {
  private requests = 0;

  constructor(
    private readonly bus: Bus,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * A RemoteDesktop session with keyboard, pointer and a stream of every monitor, once the person allowed it
   * (or a kept answer did). `waitMs`: how long the person gets to answer the dialog.
   */
  async open(waitMs: number): Promise<PortalSession> {
    const version = await remoteDesktopVersion(this.bus);
    if (version === 0) {
      throw notAvailable(
        'no RemoteDesktop portal on the session bus (xdg-desktop-portal is not running, or has no backend with a remote desktop)',
        'install xdg-desktop-portal and the backend of your desktop (on Debian and Ubuntu: sudo apt install xdg-desktop-portal xdg-desktop-portal-gnome, or -kde), then log out and in',
      );
    }
    await this.bus.call(
      'org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus',
      'AddMatch',
      's',
      ["type='signal',interface='org.freedesktop.portal.Request',member='Response'"],
    );
    const tokenFile = restoreTokenFile(this.env);
    const kept = version >= 2 ? readToken(tokenFile) : undefined;
    const created = await this.request(REMOTE_DESKTOP, 'CreateSession', 'a{sv}', [], QUIET_REQUEST_MS, {
      session_handle_token: this.bus.variant('s', `macpilot${process.pid}`),
    });
    const handle = String(created.session_handle ?? '');
    try {
      await this.request(REMOTE_DESKTOP, 'SelectDevices', 'oa{sv}', [handle], QUIET_REQUEST_MS, {
        types: this.bus.variant('u', KEYBOARD | POINTER),
        ...(version >= 2 ? { persist_mode: this.bus.variant('u', PERSIST_UNTIL_REVOKED) } : {}),
        ...(kept ? { restore_token: this.bus.variant('s', kept) } : {}),
      });
      await this.request(SCREEN_CAST, 'SelectSources', 'oa{sv}', [handle], QUIET_REQUEST_MS, {
        types: this.bus.variant('u', MONITOR),
        multiple: this.bus.variant('b', true),
        cursor_mode: this.bus.variant('u', CURSOR_HIDDEN),
      });
      const started = await this.request(REMOTE_DESKTOP, 'Start', 'osa{sv}', [handle, ''], waitMs, {});
      const devices = Number(started.devices ?? 0);
      if (typeof started.restore_token === 'string') writeToken(tokenFile, started.restore_token);
      else if (kept) rmSync(tokenFile, { force: true });
      const streams = ((started.streams ?? []) as [number, Record<string, unknown>][]).map(
        ([node, props]) => {
          const [x = 0, y = 0] = (props.position as number[] | undefined) ?? [];
          const [width = 0, height = 0] = (props.size as number[] | undefined) ?? [];
          return { node: Number(node), bounds: { x, y, width, height } };
        },
      );
      return { handle, streams, keyboard: (devices & KEYBOARD) !== 0, pointer: (devices & POINTER) !== 0 };
    } catch (error) {
      await this.close(handle);
      throw error;
    }
  }

  async close(handle: string): Promise<void> {
    await this.bus.call(PORTAL, handle, 'org.freedesktop.portal.Session', 'Close').catch(() => {});
  }

  /** A RemoteDesktop notification to the session: `signature` and `body` after the handle and its options. */
  notify(handle: string, member: string, signature: string, body: unknown[], options = {}): Promise<unknown> {
    return this.bus.call(PORTAL, PORTAL_PATH, REMOTE_DESKTOP, member, `oa{sv}${signature}`, [
      handle,
      options,
      ...body,
    ]);
  }

  /** One request: the call, then its Response; a refusal or an end is a failure naming what happened. */
  private async request(
    iface: string,
    member: string,
    signature: string,
    body: unknown[],
    waitMs: number,
    options: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const token = `macpilot${process.pid}_${++this.requests}`;
    let stop = () => {};
    const answered = new Promise<[number, Record<string, unknown>]>((resolve) => {
      stop = this.bus.onSignal((signal) => {
        if (signal.member !== 'Response' || !signal.path.endsWith(`/${token}`)) return;
        resolve(signal.body as [number, Record<string, unknown>]);
      });
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const [path] = (await this.bus.call(PORTAL, PORTAL_PATH, iface, member, signature, [
        ...body,
        { ...options, handle_token: this.bus.variant('s', token) },
      ])) as [string];
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          void this.bus.call(PORTAL, path, 'org.freedesktop.portal.Request', 'Close').catch(() => {});
          reject(
            notAvailable(
              member === 'Start'
                ? `no one answered the portal's dialog (allow remote interaction) within ${Math.round(waitMs / 1000)} s`
                : `the RemoteDesktop portal did not answer ${member} within ${Math.round(waitMs / 1000)} s`,
              member === 'Start'
                ? 'the person at this computer allows it in the dialog the next call shows'
                : 'check that xdg-desktop-portal and its backend run in the session',
            ),
          );
        }, waitMs);
      });
      const [code, results] = await Promise.race([answered, late]);
      if (code === 1) {
        throw new HelperFailure(
          HelperErrorCode.PermissionDenied,
          'the person declined remote interaction in the portal dialog',
          'only the person can allow it: the next call that needs keys, the pointer or the screen shows the dialog again',
        );
      }
      if (code !== 0) {
        throw notAvailable(
          `the RemoteDesktop portal ended the ${member} request without an answer (code ${code})`,
          'check that xdg-desktop-portal and its backend run in the session, then retry',
        );
      }
      return results;
    } finally {
      clearTimeout(timer);
      stop();
    }
  }
}
