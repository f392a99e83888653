/**
 * `macpilot doctor`'s look at the Linux services, without side effects: who owns the D-Bus names (or could be
 * started for them), whether a sound server answers, and which model OCR reads with.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MacpilotError } from '../../../errors.js';
import { ocrModel, wholeModel } from '../ocr/tesseract.js';
import type { ServiceCheck } from '../../../services/types.js';
import type { Toolset } from '../../../toolsets.js';
import { noDaemonFix, NOTIFICATIONS_NAME } from './notifications.js';
import { pactl } from './pactl.js';
import { FILE_MANAGER_NAME, NO_FILE_MANAGER_FIX } from './reveal.js';
import { ownerCommand, withSessionBus } from './session-bus.js';

const DBUS = ['org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus'] as const;

function busName(
  env: NodeJS.ProcessEnv,
  label: string,
  toolset: Toolset,
  name: string,
  how: string,
): ServiceCheck {
  return {
    label,
    toolsets: [toolset],
    check: async () => {
      try {
        return await withSessionBus(env, label, async (bus) => {
          const [owned] = await bus.call(...DBUS, 'NameHasOwner', 's', [name]);
          if (owned === true) {
            const owner = await ownerCommand(bus, name);
            return { available: true, detail: `${owner ?? 'a process'} owns ${name}` };
          }
          const [activatable] = await bus.call(...DBUS, 'ListActivatableNames');
          if (Array.isArray(activatable) && activatable.includes(name))
            return { available: true, detail: `D-Bus starts a provider of ${name} on first use` };
          return { available: false, detail: `nothing owns or can start ${name} on the session bus`, how };
        });
      } catch (error) {
        if (!(error instanceof MacpilotError)) throw error;
        return { available: false, detail: error.why, how: error.next };
      }
    },
  };
}

export function linuxServiceChecks(env: NodeJS.ProcessEnv = process.env): ServiceCheck[] {
  return [
    busName(env, 'notifications', 'system', NOTIFICATIONS_NAME, noDaemonFix()),
    {
      label: 'sound',
      toolsets: ['system'],
      check: async () => {
        try {
          const info = await pactl(['info'], 'sound', env);
          const server = /^Server Name:\s*(.+)$/m.exec(info)?.[1] ?? 'a sound server';
          const sink = /^Default Sink:\s*(.+)$/m.exec(info)?.[1] ?? 'no default output';
          return { available: true, detail: `${server}, output ${sink}` };
        } catch (error) {
          if (!(error instanceof MacpilotError)) throw error;
          return { available: false, detail: error.why, how: error.next };
        }
      },
    },
    busName(env, 'file manager', 'finder', FILE_MANAGER_NAME, NO_FILE_MANAGER_FIX),
    {
      label: 'OCR',
      toolsets: ['screen'],
      check: async () => {
        const { langPath, gzip } = ocrModel();
        const model = join(langPath, `eng.traineddata${gzip ? '.gz' : ''}`);
        if (!existsSync(model)) {
          return {
            available: false,
            detail: `tesseract.js has no English model: ${model} is missing`,
            how: 'sudo apt-get install tesseract-ocr-eng',
          };
        }
        if (!(await wholeModel(model, gzip))) {
          return {
            available: false,
            detail: `tesseract.js's English model ${model} is damaged`,
            how: gzip
              ? 'reinstall macpilot (it brings @tesseract.js-data/eng)'
              : 'sudo apt-get install --reinstall tesseract-ocr-eng',
          };
        }
        return gzip
          ? {
              available: true,
              detail: `tesseract.js with the npm package's best_int English model (install tesseract-ocr-eng: it reads UI text better and faster)`,
            }
          : { available: true, detail: `tesseract.js with Debian's tessdata_fast English model (${model})` };
      },
    },
  ];
}
