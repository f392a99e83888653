/**
 * `pmset -g batt`, read:
 *
 *   Now drawing from 'Battery Power'
 *    -InternalBattery-0 (id=4063331)	85%; discharging; 2:02 remaining present: true
 *
 * The first line names the power source ('AC Power', 'Battery Power', 'UPS Power'); each battery or UPS follows on a
 * line of its own: "<pct>%; <state>; <time or (no estimate)> remaining present: true". A Mac without a battery prints
 * the first line only.
 */
import type { Battery, BatteryState, BatteryStatus } from '../../services/types.js';

const STATES: Record<string, BatteryState> = {
  charging: 'charging',
  'finishing charge': 'charging',
  discharging: 'discharging',
  charged: 'full',
  'ac attached': 'not charging',
};

const SOURCE = /Now drawing from '([^']+)'/;
const BATTERY_LINE = /^\s*-(.+?)\s*(?:\(id=\d+\))?\s+(\d+)%;\s*([^;]+);\s*(.*)$/;
const TIME = /(\d+):(\d{2})\s+(?:remaining|until full)/;

function batteryFrom(match: RegExpExecArray): Battery {
  const [, name = '', percent = '', stateText = '', rest = ''] = match;
  const state = STATES[stateText.trim().toLowerCase()] ?? 'unknown';
  const time = TIME.exec(rest);
  const minutes = time ? Number(time[1]) * 60 + Number(time[2]) : undefined;
  // "charged; 0:00 remaining" is no estimate; "(no estimate)" has no digits to match.
  const known = minutes !== undefined && (state === 'charging' || state === 'discharging');
  return {
    name: name.trim(),
    percent: Number(percent),
    state,
    ...(known ? { minutesRemaining: minutes } : {}),
  };
}

export function parsePmsetBatt(text: string): BatteryStatus {
  const source = SOURCE.exec(text)?.[1];
  const power = source ? { onExternalPower: source === 'AC Power' } : {};
  const batteries = text
    .split('\n')
    .map((line) => BATTERY_LINE.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(batteryFrom);
  if (batteries.length === 0) {
    return { hasBattery: false, reason: 'no battery: a desktop Mac (pmset -g batt lists none)', ...power };
  }
  return { hasBattery: true, batteries, ...power };
}
