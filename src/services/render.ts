/** The text an agent reads for the system services' results. */
import { plural } from '../text.js';
import type { AudioState, Battery, BatteryStatus, SystemInfo } from './types.js';

const GIB = 1024 ** 3;

export function duration(totalMinutes: number): string {
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = Math.round(totalMinutes % 60);
  const parts = [days > 0 ? `${days} d` : '', hours > 0 ? `${hours} h` : '', `${minutes} min`];
  return parts.filter(Boolean).join(' ');
}

export function renderSystemInfo(info: SystemInfo): string {
  return [
    `OS: ${info.os}`,
    `Kernel: ${info.kernel}`,
    ...(info.model ? [`Model: ${info.model}`] : []),
    `CPU: ${info.cpu} (${plural(info.cpuCores, 'core')}, ${info.arch})`,
    `Memory: ${(info.memoryBytes / GIB).toFixed(1)} GiB`,
    `Host name: ${info.hostname}`,
    `Up: ${duration(info.uptimeSeconds / 60)}`,
  ].join('\n');
}

function batteryLine(battery: Battery): string {
  const left =
    battery.minutesRemaining === undefined
      ? ''
      : battery.state === 'charging'
        ? `, ${duration(battery.minutesRemaining)} until full`
        : `, ${duration(battery.minutesRemaining)} left`;
  const percent = battery.percent === undefined ? 'charge unknown' : `${Math.round(battery.percent)}%`;
  return `- ${battery.name}: ${percent}, ${battery.state}${left}`;
}

export function renderBattery(status: BatteryStatus): string {
  const power =
    status.onExternalPower === undefined
      ? []
      : [`On external power: ${status.onExternalPower ? 'yes' : 'no'}`];
  if (!status.hasBattery) return [`No battery: ${status.reason}.`, ...power].join('\n');
  return [...status.batteries.map(batteryLine), ...power].join('\n');
}

const volumeText = (state: AudioState): string =>
  state.volume === null ? 'no volume control' : `${state.volume}%`;

export function renderAudio(state: AudioState): string {
  const device = state.device ? ` on ${state.device}` : '';
  return `Volume ${volumeText(state)}, ${state.muted ? 'muted' : 'not muted'}${device}.`;
}

export function renderVolumeChange(before: AudioState, after: AudioState): string {
  if (after.volume === null)
    return `The output${after.device ? ` ${after.device}` : ''} has no volume control; nothing changed.`;
  const was = before.volume === after.volume ? 'unchanged' : `was ${volumeText(before)}`;
  const muted = after.muted ? ' Output is muted: set_mute false to hear it.' : '';
  return `Volume ${after.volume}% (${was}).${muted}`;
}

export function renderMuteChange(before: AudioState, after: AudioState): string {
  const now = after.muted ? 'Muted' : 'Not muted';
  return `${now} (${before.muted === after.muted ? 'unchanged' : `was ${before.muted ? 'muted' : 'not muted'}`}).`;
}
