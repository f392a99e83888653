/** Desktop notifications through org.freedesktop.Notifications on the session bus (notification-daemon, dunst, GNOME Shell, KDE Plasma, ...). */
import { existsSync } from 'node:fs';
import { MacpilotError } from '../../../errors.js';
import type {
  NotificationReceipt,
  NotificationRequest,
  NotificationService,
} from '../../../services/types.js';
import { DBusCallError } from '../errors.js';
import { type SessionBus, withSessionBus } from './session-bus.js';

const NAME = 'org.freedesktop.Notifications';
const PATH = '/org/freedesktop/Notifications';
/** The freedesktop sound theme's name for an incoming message, played for `sound: true`. */
const DEFAULT_SOUND = 'message-new-instant';
const FAILED = 'Could not show the notification';
export const NOTIFICATIONS_NAME = NAME;
/** Daemons Debian packages, with the command that starts one in a session. */
const DAEMONS = [
  { binary: '/usr/lib/notification-daemon/notification-daemon', package: 'notification-daemon' },
  { binary: '/usr/bin/dunst', package: 'dunst' },
];

/** How to get a notification daemon running: start one that is installed, else install one. */
export function noDaemonFix(): string {
  const installed = DAEMONS.find((daemon) => existsSync(daemon.binary));
  if (installed)
    return `start the notification daemon in your desktop session: run \`${installed.binary} &\``;
  return "start the desktop's notification daemon, or install one, e.g. `sudo apt-get install notification-daemon` (then run /usr/lib/notification-daemon/notification-daemon) or `sudo apt-get install dunst`";
}

/** Daemons that announce body-markup read <, > and & in the body as markup. */
function markupEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Notify's hints: which sound to play, or that none should (the default, as on macOS). */
export function soundHints(
  bus: Pick<SessionBus, 'variant'>,
  sound: boolean | string | undefined,
): Record<string, unknown> {
  // Silent unless asked: daemons may otherwise play a sound of their own.
  if (sound === undefined || sound === false) return { 'suppress-sound': bus.variant('b', true) };
  return {
    'sound-name': bus.variant('s', sound === true ? DEFAULT_SOUND : sound),
    'suppress-sound': bus.variant('b', false),
  };
}

/** The body: the subtitle on its own line above the message. */
export function notificationBody(request: NotificationRequest, markup: boolean): string {
  const text = [request.subtitle, request.message].filter((part) => part).join('\n');
  return markup ? markupEscaped(text) : text;
}

/** A D-Bus error reply in words an agent can act on; anything else as it is. */
function explained(error: unknown): unknown {
  if (error instanceof DBusCallError && error.type === 'org.freedesktop.DBus.Error.ServiceUnknown') {
    return new MacpilotError(
      {
        what: FAILED,
        why: `no notification daemon runs in this desktop session: nothing owns ${NAME} on the session bus and no D-Bus service file can start one`,
        next: noDaemonFix(),
        kind: 'no_notification_daemon',
      },
      { cause: error },
    );
  }
  if (error instanceof DBusCallError) {
    return new MacpilotError(
      {
        what: FAILED,
        why: `the notification service failed to answer (${error.type}: ${error.message})`,
        next: 'restart the notification daemon, then retry',
        kind: 'notification_service_failed',
      },
      { cause: error },
    );
  }
  return error;
}

export function linuxNotifications(env: NodeJS.ProcessEnv = process.env): NotificationService {
  return {
    send(request, options): Promise<NotificationReceipt> {
      return withSessionBus(
        env,
        FAILED,
        async (bus) => {
          try {
            const [[capabilities], [name, , version]] = await Promise.all([
              bus.call(NAME, PATH, NAME, 'GetCapabilities'),
              bus.call(NAME, PATH, NAME, 'GetServerInformation'),
            ]);
            const markup = Array.isArray(capabilities) && capabilities.includes('body-markup');
            const [id] = await bus.call(NAME, PATH, NAME, 'Notify', 'susssasa{sv}i', [
              'macpilot',
              0,
              '',
              request.title,
              notificationBody(request, markup),
              [],
              soundHints(bus, request.sound),
              -1,
            ]);
            return {
              server: [name, version].filter((part) => typeof part === 'string' && part).join(' ') || NAME,
              ...(typeof id === 'number' ? { id } : {}),
            };
          } catch (error) {
            throw explained(error);
          }
        },
        options?.signal,
      );
    },
  };
}
