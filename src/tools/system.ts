/** The system toolset: facts about the machine, notifications, output volume and mute. */
import { z } from 'zod';
import {
  renderAudio,
  renderBattery,
  renderMuteChange,
  renderSystemInfo,
  renderVolumeChange,
} from '../services/render.js';
import {
  defineTool,
  toolsetTools,
  withService,
  READ_ONLY,
  serviceOf,
  type ToolContext,
  WRITE,
} from './types.js';

/** get_volume and get_mute_status: one reading answers both. */
const audioStatus = async (_args: unknown, context: ToolContext): Promise<string> =>
  renderAudio(await serviceOf(context, 'audio').get({ signal: context.signal }));

const SOUND_NAME = /^[\p{L}\p{N} ._-]{1,64}$/u;

export const systemTools = toolsetTools('system', [
  ...withService('systemInfo', [
    defineTool({
      name: 'get_system_info',
      title: 'Get system info',
      description:
        'The OS and its version, kernel, hardware model (when the machine says), CPU, memory, host name and uptime.',
      input: z.object({}),
      annotations: READ_ONLY,
      handle: async (_args, context) =>
        renderSystemInfo(await serviceOf(context, 'systemInfo').info({ signal: context.signal })),
    }),
    defineTool({
      name: 'get_battery_status',
      title: 'Get battery status',
      description:
        'Charge (percent), whether each battery is charging, and the time left when known; says plainly when ' +
        'the machine has no battery (a desktop or a virtual machine).',
      input: z.object({}),
      annotations: READ_ONLY,
      handle: async (_args, context) =>
        renderBattery(await serviceOf(context, 'systemInfo').battery({ signal: context.signal })),
    }),
  ]),
  ...withService('notifications', [
    defineTool({
      name: 'send_notification',
      title: 'Send a notification',
      description:
        "Show a desktop notification to the user (macOS Notification Center; on Linux the session's " +
        'notification daemon). Whether it stays on screen is up to the desktop (Focus / do-not-disturb).',
      input: z.object({
        title: z.string().min(1).max(256).describe('The headline.'),
        message: z.string().max(4000).describe('The body text.'),
        subtitle: z.string().max(256).optional().describe('A second line under the title.'),
        sound: z
          .union([
            z.boolean(),
            z
              .string()
              .regex(SOUND_NAME, 'a sound name is letters, digits, spaces, ".", "_" or "-" (at most 64)'),
          ])
          .optional()
          .describe(
            'true for the default sound, or a sound name ("Glass" on macOS, a freedesktop name such as ' +
              '"message-new-instant" on Linux). Default: silent.',
          ),
      }),
      annotations: WRITE,
      handle: async (args, context) => {
        const receipt = await serviceOf(context, 'notifications').send(
          { title: args.title, message: args.message, subtitle: args.subtitle, sound: args.sound },
          { signal: context.signal },
        );
        return `Notification delivered to ${receipt.server}${receipt.id === undefined ? '' : ` (id ${receipt.id})`}.`;
      },
    }),
  ]),
  ...withService('audio', [
    defineTool({
      name: 'get_volume',
      title: 'Get the output volume',
      description:
        'The output volume as a percentage (0-100), whether output is muted, and the output device.',
      input: z.object({}),
      annotations: READ_ONLY,
      handle: audioStatus,
    }),
    defineTool({
      name: 'set_volume',
      title: 'Set the output volume',
      description: 'Set the output volume to a percentage (0-100). Does not unmute: see set_mute.',
      input: z.object({
        volume: z.number().int().min(0).max(100).describe('Percent, a whole number from 0 to 100.'),
      }),
      annotations: { ...WRITE, idempotentHint: true },
      inverse: async (_args, context) => {
        const { volume } = await serviceOf(context, 'audio').get({ signal: context.signal });
        return volume === null
          ? undefined
          : { tool: 'set_volume', args: { volume }, what: `the volume at ${volume}%` };
      },
      handle: async (args, context) => {
        const audio = serviceOf(context, 'audio');
        const before = await audio.get({ signal: context.signal });
        return renderVolumeChange(before, await audio.setVolume(args.volume, { signal: context.signal }));
      },
    }),
    defineTool({
      name: 'get_mute_status',
      title: 'Get the mute status',
      description: 'Whether output is muted, with the volume it will play at when unmuted.',
      input: z.object({}),
      annotations: READ_ONLY,
      handle: audioStatus,
    }),
    defineTool({
      name: 'set_mute',
      title: 'Mute or unmute',
      description: 'Mute (true) or unmute (false) the output; the volume setting is kept.',
      input: z.object({ muted: z.boolean().describe('true to mute, false to unmute.') }),
      annotations: { ...WRITE, idempotentHint: true },
      inverse: async (_args, context) => {
        const { muted } = await serviceOf(context, 'audio').get({ signal: context.signal });
        return { tool: 'set_mute', args: { muted }, what: muted ? 'muted again' : 'unmuted again' };
      },
      handle: async (args, context) => {
        const audio = serviceOf(context, 'audio');
        const before = await audio.get({ signal: context.signal });
        return renderMuteChange(before, await audio.setMuted(args.muted, { signal: context.signal }));
      },
    }),
  ]),
]);
