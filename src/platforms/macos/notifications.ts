/** Notifications through Notification Center: JXA's displayNotification (Standard Additions). */
import { z } from 'zod';
import type { NotificationReceipt, NotificationService } from '../../services/types.js';
import type { Osascript } from './osascript.js';
import { SCRIPTS } from './scripts.js';

/** The sound `sound: true` plays: one of the sounds in /System/Library/Sounds. */
export const DEFAULT_SOUND = 'Glass';

export function soundName(sound: boolean | string | undefined): string {
  if (sound === true) return DEFAULT_SOUND;
  return typeof sound === 'string' ? sound : '';
}

/**
 * Notifications from osascript are posted as Script Editor, and macOS files them without showing them (and without an
 * error) until Script Editor may post notifications; osascript itself never asks for that permission.
 */
const NOTIFICATION_SERVER =
  'Notification Center, as Script Editor (it shows them only when System Settings > Notifications > Script Editor ' +
  'allows it; if Script Editor is not listed, run `display notification "test"` once in Script Editor)';

export function macosNotifications(osascript: Osascript): NotificationService {
  return {
    async send(request, options = {}): Promise<NotificationReceipt> {
      const values = [request.message, request.title, request.subtitle ?? '', soundName(request.sound)];
      z.object({ shown: z.literal(true) }).parse(
        await osascript.runConstant(SCRIPTS.notify, values, options),
      );
      return { server: NOTIFICATION_SERVER };
    },
  };
}
