/** Output volume and mute of the default sink of PulseAudio or PipeWire (pipewire-pulse), through pactl. */
import type { AudioService, AudioState, CallOptions } from '../../../services/types.js';
import { defaultSinkName, noSink, pactl, parseSinks } from './pactl.js';

export function linuxAudio(env: NodeJS.ProcessEnv = process.env): AudioService {
  const read = async (what: string, options?: CallOptions): Promise<AudioState> => {
    const [defaultOutput, listing] = await Promise.all([
      pactl(['get-default-sink'], what, env, options?.signal),
      pactl(['list', 'sinks'], what, env, options?.signal),
    ]);
    const name = defaultSinkName(defaultOutput);
    const sink = parseSinks(listing).find((s) => s.name === name);
    if (!sink) throw noSink(what);
    const volume =
      sink.channels.length > 0
        ? Math.round(sink.channels.reduce((sum, v) => sum + v, 0) / sink.channels.length)
        : null;
    return { volume, muted: sink.muted, device: sink.description ?? sink.name };
  };

  return {
    get: (options) => read('Could not read the output volume', options),
    async setVolume(percent, options) {
      const what = `Could not set the output volume to ${percent}%`;
      await pactl(['set-sink-volume', '@DEFAULT_SINK@', `${percent}%`], what, env, options?.signal);
      return read(what, options);
    },
    async setMuted(muted, options) {
      const what = muted ? 'Could not mute the output' : 'Could not unmute the output';
      await pactl(['set-sink-mute', '@DEFAULT_SINK@', muted ? '1' : '0'], what, env, options?.signal);
      return read(what, options);
    },
  };
}
