/** The output volume and mute through Standard Additions' get volume settings / set volume, read back after a change. */
import { z } from 'zod';
import { MacpilotError } from '../../errors.js';
import type { AudioService, AudioState, CallOptions } from '../../services/types.js';
import type { Osascript } from './osascript.js';
import { SCRIPTS } from './scripts.js';

const AUDIO_STATE = z.object({ volume: z.number().nullable(), muted: z.boolean() });

export function macosAudio(osascript: Osascript): AudioService {
  const audio = async (values: string[], options: CallOptions): Promise<AudioState> =>
    AUDIO_STATE.parse(await osascript.runConstant(SCRIPTS.audio, values, options));
  const noVolumeControl = (wanted: string) =>
    new MacpilotError({
      what: `Could not ${wanted}`,
      why: 'the current output device has no volume control (macOS reports no output volume for it, as for many HDMI and USB devices)',
      next: 'change the volume on the device itself, or pick another output in System Settings > Sound',
      kind: 'no_volume_control',
    });
  return {
    get: (options = {}) => audio(['get'], options),

    async setVolume(percent, options = {}) {
      const state = await audio(['volume', String(Math.round(percent))], options);
      if (state.volume === null) throw noVolumeControl(`set the volume to ${percent}%`);
      return state;
    },

    async setMuted(muted, options = {}) {
      const state = await audio(['muted', String(muted)], options);
      if (state.volume === null) throw noVolumeControl(muted ? 'mute the output' : 'unmute the output');
      return state;
    },
  };
}
