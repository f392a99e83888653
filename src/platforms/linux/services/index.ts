/**
 * The services Linux desktops have a standard for; the server process builds them once. Nothing heavy loads
 * here: D-Bus and child processes start inside the calls.
 */
import type { Services } from '../../../services/types.js';
import { linuxAudio } from './audio.js';
import { linuxNotifications } from './notifications.js';
import { linuxRelaunch } from './relaunch.js';
import { linuxReveal } from './reveal.js';
import { linuxSystemInfo } from './system-info.js';

export function linuxServices(env: NodeJS.ProcessEnv = process.env): Services {
  return {
    systemInfo: linuxSystemInfo(),
    notifications: linuxNotifications(env),
    audio: linuxAudio(env),
    reveal: linuxReveal(env),
    relaunch: linuxRelaunch(env),
  };
}
