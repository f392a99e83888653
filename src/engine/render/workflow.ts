/** run_workflow's summary and undo's answer as text: steps' answers carry app text, so both are fenced (a dry run's, which runs nothing, is not). */
import { dataNote } from '../../untrusted.js';
import type { UndoRun, WorkflowRun } from '../kernel/results.js';

/** The first line of an answer: enough for a summary line; the structured result carries the rest. */
export const firstLine = (text: string): string => text.split('\n', 1)[0] ?? '';

/** A done step's answer in one line: its first, and "…" where more follows (a heading's colon dropped). */
const summaryLine = (text: string): string => {
  const first = firstLine(text);
  return first.length < text.length ? `${first.replace(/:$/, '')} …` : first;
};

export function workflowText(r: WorkflowRun): string {
  const title = r.name ? `Workflow ${JSON.stringify(r.name)}` : 'Workflow';
  const problems = r.steps.filter((s) => s.status === 'failed').length;
  const head = r.dryRun
    ? r.success
      ? `${title} would run: ${r.stepsTotal} ${r.stepsTotal === 1 ? 'step' : 'steps'} checked, none run`
      : `${title} would not run: ${problems} of ${r.stepsTotal} steps must be fixed first`
    : r.success
      ? `${title}: ${r.stepsCompleted} of ${r.stepsTotal} steps done`
      : `${title} stopped: ${r.error}`;
  const lines = r.steps.map((s) => {
    const tries = s.attempts > 1 ? ` after ${s.attempts} tries` : '';
    // A step that failed says why and what to do next, as the call alone would; one done, what it did.
    const said = s.status === 'failed' ? s.text?.replaceAll('\n', '\n   ') : s.text && summaryLine(s.text);
    return `${s.step}. ${s.tool}: ${s.status}${tries}${said ? ` - ${said}` : ''}`;
  });
  const rolled =
    r.rolledBack.length > 0
      ? `\nRolled back: ${r.rolledBack.length === 1 ? 'step' : 'steps'} ${r.rolledBack.join(', ')}.`
      : '';
  // A dry run quotes no app: its lines are the steps as given and what was found wrong with them.
  return `${head}${r.dryRun ? '' : ` ${dataNote()}`}:\n${lines.join('\n')}${rolled}`;
}

export function undoText(r: UndoRun): string {
  // Newest first, as they were taken back, so that each line matches the action it answers.
  const lines = [
    ...r.undone.map((u) => ({ seq: u.seq, line: `- undid ${u.tool}: ${u.what}` })),
    ...r.notUndone.map((u) => ({ seq: u.seq, line: `- not undone: ${u.tool}, ${u.why}` })),
  ]
    .sort((a, b) => b.seq - a.seq)
    .map((entry) => entry.line);
  const fewer = r.asked > r.taken ? ` (${r.asked} asked; the session had no more to undo)` : '';
  const actions = r.taken === 1 ? 'action' : 'actions';
  return `Undid ${r.undone.length} of ${r.taken} ${actions}${fewer} ${dataNote()}:\n${lines.join('\n')}`;
}
