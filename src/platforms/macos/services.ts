/** What macOS offers beyond the accessibility tree, through osascript and a few constant commands. */
import type { Services } from '../../services/types.js';
import { macosAudio } from './audio.js';
import { MAC_COMMANDS, type MacCommands } from './commands.js';
import { macosFinder, macosReveal } from './finder.js';
import { macosNotifications } from './notifications.js';
import { Osascript } from './osascript.js';
import { macosScripting } from './scripting.js';
import { macosStatusBar } from './status-bar.js';
import { macosSystemInfo } from './system-info.js';

export function macosServices(commands: MacCommands = MAC_COMMANDS): Services {
  const osascript = new Osascript(commands.osascript);
  return {
    systemInfo: macosSystemInfo(commands),
    notifications: macosNotifications(osascript),
    audio: macosAudio(osascript),
    reveal: macosReveal(osascript),
    finder: macosFinder(osascript),
    statusBar: macosStatusBar(osascript),
    scripting: macosScripting(osascript, commands.osacompile),
  };
}
