/**
 * `macpilot doctor`'s look at the Linux services, without side effects: who owns the D-Bus names (or could be
 * started for them), whether a sound server answers, and which model OCR reads with.
 */
import { existsSync } from 'node:fs';
import { MacpilotError } from '../../../errors.js';
import { ENGINE_PACKAGE, loadEngine, modelFile, NPM_MODEL, ocrModel, wholeModel } from '../ocr/model.js';
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
        try {
          await loadEngine();
        } catch (error) {
          if (!(error instanceof MacpilotError)) throw error;
          return { available: false, detail: `${ENGINE_PACKAGE} is not installed`, how: error.next };
        }
        const model = ocrModel();
        const file = modelFile(model);
        if (model.source === 'npm' && !existsSync(file)) {
          return {
            available: true,
            detail:
              `tesseract.js; its English model is not here yet: the first read_text fetches ${NPM_MODEL.spec} ` +
              `(${(NPM_MODEL.downloadBytes / 1e6).toFixed(1)} MB) from the npm registry into ${model.langPath} ` +
              "(or install tesseract-ocr-eng: Debian's model reads UI text better and faster)",
          };
        }
        if (!existsSync(file)) {
          return {
            available: false,
            detail: `tesseract.js has no English model: ${file} is missing`,
            how: 'sudo apt-get install tesseract-ocr-eng',
          };
        }
        if (!(await wholeModel(file, model.gzip))) {
          return {
            available: false,
            detail: `tesseract.js's English model ${file} is damaged`,
            how:
              model.source === 'npm'
                ? `delete ${file}: the next read_text fetches it again`
                : 'sudo apt-get install --reinstall tesseract-ocr-eng',
          };
        }
        return model.source === 'npm'
          ? {
              available: true,
              detail: `tesseract.js with the npm package's best_int English model, fetched into ${model.langPath} (install tesseract-ocr-eng: it reads UI text better and faster)`,
            }
          : { available: true, detail: `tesseract.js with Debian's tessdata_fast English model (${file})` };
      },
    },
  ];
}
