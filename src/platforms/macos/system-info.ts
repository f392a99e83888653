/**
 * System facts and batteries on macOS: Node's os module, `sw_vers` for the release, `sysctl -n hw.model` for the
 * model, `pmset -g batt` for the batteries. Constant commands, no shell.
 */
import { machineFacts } from '../../services/machine.js';
import type { BatteryStatus, CallOptions, SystemInfo, SystemInfoService } from '../../services/types.js';
import { COMMAND_TIMEOUT_MS, type MacCommands, SHIPS_WITH_MACOS } from './commands.js';
import { parsePmsetBatt } from './pmset.js';
import { runProcess } from '../../services/process.js';

/** "macOS 14.5 (23F79)", "macOS 13.4.1 (a) (22F770820d)" from sw_vers' lines; undefined when it names no product. */
export function releaseName(swVers: string): string | undefined {
  const field = (key: string) => new RegExp(`^${key}:\\s*(.+)$`, 'm').exec(swVers)?.[1]?.trim();
  const name = field('ProductName');
  if (!name) return undefined;
  const version = field('ProductVersion');
  // A Rapid Security Response adds its letter on a line of its own: "ProductVersionExtra: (a)".
  const extra = field('ProductVersionExtra');
  const build = field('BuildVersion');
  return [name, version, extra, build ? `(${build})` : undefined].filter(Boolean).join(' ');
}

export function macosSystemInfo(
  commands: Pick<MacCommands, 'swVers' | 'sysctl' | 'pmset'>,
): SystemInfoService {
  const read = async (file: string, args: string[], action: string, options: CallOptions) => {
    const outcome = await runProcess({
      file,
      args,
      timeoutMs: COMMAND_TIMEOUT_MS,
      signal: options.signal,
      action,
      notInstalled: SHIPS_WITH_MACOS,
      onTimeout: 'the Mac is very busy; try again in a moment',
    });
    return outcome.exitCode === 0 ? outcome.stdout : undefined;
  };
  return {
    async info(options = {}): Promise<SystemInfo> {
      const [swVers, model] = await Promise.all([
        read(commands.swVers, [], 'Reading the macOS version', options),
        read(commands.sysctl, ['-n', 'hw.model'], 'Reading the Mac model', options),
      ]);
      const modelName = model?.trim();
      return {
        os: (swVers && releaseName(swVers)) ?? 'macOS',
        ...(modelName ? { model: modelName } : {}),
        ...(await machineFacts(() => Promise.resolve(undefined))),
      };
    },

    async battery(options = {}): Promise<BatteryStatus> {
      const text = await read(commands.pmset, ['-g', 'batt'], 'Reading the battery', options);
      if (text === undefined) {
        return { hasBattery: false, reason: 'pmset -g batt failed, so no battery could be read' };
      }
      return parsePmsetBatt(text);
    },
  };
}
