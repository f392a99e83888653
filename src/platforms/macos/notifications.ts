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

export function macosNotifications(osascript: Osascript): NotificationService {
  return {
    async send(request, options = {}): Promise<NotificationReceipt> {
      const values = [request.message, request.title, request.subtitle ?? '', soundName(request.sound)];
      z.object({ shown: z.literal(true) }).parse(
        await osascript.runConstant(SCRIPTS.notify, values, options),
      );
      return { server: 'Notification Center' };
    },
  };
}
