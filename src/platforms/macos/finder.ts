/** Finder: reveal an item, read the selection, read the front window's folder (JXA, Apple events to Finder). */
import { z } from 'zod';
import { MacpilotError } from '../../errors.js';
import type { FinderService, RevealService } from '../../services/types.js';
import type { Osascript } from './osascript.js';
import { SCRIPTS } from './scripts.js';

const FRONT_WINDOW = z.union([
  z.object({ window: z.literal(false) }),
  z.object({ window: z.literal(true), path: z.string().nullable() }),
]);

export function macosReveal(osascript: Osascript): RevealService {
  return {
    async reveal(path, options = {}) {
      z.object({ revealed: z.literal(true) }).parse(
        await osascript.runConstant(SCRIPTS.reveal, [path], options),
      );
      return { fileManager: 'Finder' };
    },
  };
}

export function macosFinder(osascript: Osascript): FinderService {
  return {
    async selectedFiles(options = {}) {
      return z.array(z.string()).parse(await osascript.runConstant(SCRIPTS.finderSelection, [], options));
    },

    async frontWindowPath(options = {}) {
      const front = FRONT_WINDOW.parse(await osascript.runConstant(SCRIPTS.finderWindow, [], options));
      if (!front.window) return null;
      if (front.path === null) {
        throw new MacpilotError({
          what: 'The front Finder window shows no folder',
          why: 'it shows a place that has no path on disk, such as Recents, a search or AirDrop',
          next: 'open a folder in that window, or read the selection with get_selected_files',
          kind: 'finder_window_without_folder',
        });
      }
      return front.path;
    },
  };
}
