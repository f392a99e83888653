/**
 * pactl (Debian's pulseaudio-utils), the command-line client of PulseAudio and of PipeWire's pulse server: running
 * it without a shell, in the C locale so that its output parses, and reading `pactl list sinks`.
 */
import { join } from 'node:path';
import { MacpilotError } from '../../../errors.js';
import { runProcess } from '../../../services/process.js';

export interface Sink {
  name: string;
  description?: string;
  muted: boolean;
  /** Each channel's volume in percent, as pactl shows it. */
  channels: number[];
}

/** Where libpulse looks for the server: PULSE_SERVER, else the user's runtime folder. */
export function serverLocation(env: NodeJS.ProcessEnv): string {
  if (env.PULSE_SERVER) return `PULSE_SERVER=${env.PULSE_SERVER}`;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'pulse', 'native');
  return 'no PULSE_SERVER and no XDG_RUNTIME_DIR in the environment';
}

/** pactl's failure in words an agent can act on. */
export function pactlFailure(what: string, stderr: string, env: NodeJS.ProcessEnv): MacpilotError {
  if (/Connection (refused|failure)|pa_context_connect\(\) failed|Access denied/i.test(stderr)) {
    return new MacpilotError({
      what,
      why: `no PulseAudio or PipeWire server runs for this user (pactl looked at ${serverLocation(env)}: ${firstLine(stderr)})`,
      next: 'start the sound server (`systemctl --user start pipewire-pulse` or `pulseaudio --start`), or run macpilot with the XDG_RUNTIME_DIR / PULSE_SERVER of the desktop session',
      kind: 'sound_server_unreachable',
    });
  }
  if (/No such entity/i.test(stderr)) return noSink(what);
  return new MacpilotError({
    what,
    why: `pactl failed: ${firstLine(stderr) || 'no message'}`,
    next: 'check the sound server with `pactl info`',
    kind: 'pactl_failed',
  });
}

export function noSink(what: string): MacpilotError {
  return new MacpilotError({
    what,
    why: 'the sound server has no output device (no sink)',
    next: 'connect or enable an output device (see `pactl list short sinks`), or load one, e.g. `pactl load-module module-null-sink`',
    kind: 'no_sound_output',
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

const TIMEOUT_MS = 10_000;

/** Runs pactl with `args` and returns its stdout; every failure is a MacpilotError saying `what` failed. */
export async function pactl(
  args: string[],
  what: string,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<string> {
  const outcome = await runProcess({
    file: 'pactl',
    args,
    env: { ...env, LC_ALL: 'C' },
    timeoutMs: TIMEOUT_MS,
    ...(signal ? { signal } : {}),
    action: what,
    onTimeout: 'the sound server may be hung: restart it, then retry',
    notInstalled:
      "macpilot controls the volume through PulseAudio or PipeWire with pactl: install it, `sudo apt-get install pulseaudio-utils` (Debian, Ubuntu) or your distribution's pulseaudio-utils / libpulse package",
  });
  if (outcome.exitCode === 0) return outcome.stdout.trimEnd();
  throw pactlFailure(what, outcome.stderr, env);
}

/** The sinks in `pactl list sinks` output (C locale). */
export function parseSinks(listing: string): Sink[] {
  const sinks: Sink[] = [];
  for (const block of listing.split(/^Sink #\d+\s*$/m).slice(1)) {
    const field = (key: string) => new RegExp(`^\\s*${key}:[ \\t]*(.*)$`, 'm').exec(block)?.[1]?.trim();
    const name = field('Name');
    if (!name) continue;
    const description = field('Description');
    sinks.push({
      name,
      ...(description ? { description } : {}),
      muted: field('Mute') === 'yes',
      channels: volumePercents(field('Volume') ?? ''),
    });
  }
  return sinks;
}

/** "front-left: 24248 /  37% / -25.91 dB,   front-right: ..." → [37, ...]. */
export function volumePercents(volume: string): number[] {
  return [...volume.matchAll(/\/\s*(\d+)%/g)].map((m) => Number(m[1]));
}

/** `pactl get-default-sink`: the sink's name, or undefined when the server has none ("(null)" or nothing). */
export function defaultSinkName(output: string): string | undefined {
  const name = output.trim();
  return name && name !== '(null)' && name !== '@DEFAULT_SINK@' ? name : undefined;
}
