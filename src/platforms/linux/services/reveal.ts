/** Showing a file selected in the file manager through org.freedesktop.FileManager1 (Thunar, Nautilus, Nemo, Dolphin, Caja). */
import { pathToFileURL } from 'node:url';
import { MacpilotError } from '../../../errors.js';
import type { RevealService } from '../../../services/types.js';
import { DBusCallError } from '../errors.js';
import { ownerCommand, withSessionBus } from './session-bus.js';

const NAME = 'org.freedesktop.FileManager1';
const PATH = '/org/freedesktop/FileManager1';
export const FILE_MANAGER_NAME = NAME;
export const NO_FILE_MANAGER_FIX = `install a file manager that implements ${NAME}: thunar, nautilus, nemo or dolphin (e.g. \`sudo apt-get install thunar\`)`;

function explained(error: unknown, path: string): unknown {
  if (!(error instanceof DBusCallError)) return error;
  const what = `Could not show ${path} in the file manager`;
  if (error.type === 'org.freedesktop.DBus.Error.ServiceUnknown') {
    return new MacpilotError(
      {
        what,
        why: `no file manager in this desktop session implements ${NAME} (nothing owns the name on the session bus and no D-Bus service file can start one)`,
        next: NO_FILE_MANAGER_FIX,
        kind: 'no_file_manager',
      },
      { cause: error },
    );
  }
  return new MacpilotError(
    {
      what,
      why: `the file manager refused (${error.type}: ${error.message})`,
      next: 'check that the file manager runs in this desktop session, then retry',
      kind: 'file_manager_refused',
    },
    { cause: error },
  );
}

export function linuxReveal(env: NodeJS.ProcessEnv = process.env): RevealService {
  return {
    reveal(path, options) {
      return withSessionBus(
        env,
        `Could not show ${path} in the file manager`,
        async (bus) => {
          try {
            await bus.call(NAME, PATH, NAME, 'ShowItems', 'ass', [[pathToFileURL(path).href], '']);
          } catch (error) {
            throw explained(error, path);
          }
          return { fileManager: (await ownerCommand(bus, NAME)) ?? 'file manager' };
        },
        options?.signal,
      );
    },
  };
}
