/** `macpilot stop` and `macpilot resume`: the person's kill switch over every macpilot server of theirs. */
import { pauseWrittenDown, stopOrResume } from '../control.js';
import { plural } from '../text.js';
import { UsageError } from './usage-error.js';

export async function deskCommand(name: 'stop' | 'resume', minutes: string | undefined): Promise<number> {
  if (name === 'resume' && minutes !== undefined) throw new UsageError('resume takes no --minutes');
  const pauseMs = minutes === undefined ? undefined : minutesOf(minutes);
  const pausedBefore = pauseWrittenDown()?.until;
  const { reports, pausedUntil } = await stopOrResume(
    name === 'stop'
      ? { command: 'stop', ...(pauseMs === undefined ? {} : { pauseMs }) }
      : { command: 'resume' },
  );
  const until = new Date(pausedUntil).toTimeString().slice(0, 8);
  if (reports.length === 0) {
    const lifted =
      pausedBefore === undefined
        ? `nothing to ${name}.`
        : `the pause until ${new Date(pausedBefore).toTimeString().slice(0, 8)} is lifted: a server that starts now may act.`;
    process.stdout.write(
      pausedUntil > Date.now()
        ? `No macpilot server of yours is running: nothing to stop; one that starts before ${until} starts with actions paused (\`macpilot resume\` ends the pause sooner).\n`
        : `No macpilot server of yours is running; ${lifted}\n`,
    );
    return 0;
  }
  const servers = plural(reports.length, 'macpilot server');
  if (name === 'resume') {
    const paused = reports.filter((r) => r.wasPaused).length;
    process.stdout.write(
      paused === 0
        ? `${reports.length === 1 ? 'The macpilot server was not' : `None of the ${servers} was`} paused: agents may act.\n`
        : `Resumed ${paused === reports.length ? servers : `${paused} of ${servers}`}: agents may act again.\n`,
    );
    return 0;
  }
  const cancelled = reports.reduce((sum, r) => sum + r.cancelled, 0);
  const pause =
    pausedUntil > Date.now()
      ? `actions paused until ${until}, also in servers started meanwhile (\`macpilot resume\` ends the pause sooner)`
      : 'actions not paused (--minutes 0)';
  process.stdout.write(`Stopped ${servers}: ${plural(cancelled, 'call')} cancelled; ${pause}.\n`);
  return 0;
}

function minutesOf(text: string): number {
  const minutes = Number(text);
  if (!Number.isFinite(minutes) || minutes < 0 || minutes > 24 * 60) {
    throw new UsageError(`--minutes is a number of minutes from 0 to 1440, not "${text}"`);
  }
  return Math.round(minutes * 60_000);
}
