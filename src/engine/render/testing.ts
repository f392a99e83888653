/** The testing toolset's results as text: assertions, visual diffs and accessibility audits. */
import { locatedLines } from './line.js';
import {
  type AssertResult,
  type AssertValue,
  type AuditResult,
  type VisualDiffResult,
  SEVERITIES,
} from '../kernel/results.js';
import { duration, plural } from '../../text.js';
import { dataNote } from '../../untrusted.js';
import { labelOf } from '../kernel/tree.js';

/** Issues listed in the text at most; the structured result has them all. */
export const AUDIT_LINES = 100;

const SHOWN_CHARS = 200;

/** Values exactly as compared (whitespace kept: a trailing tab is a difference), cut when long. */
const shown = (value: AssertValue | null): string => {
  if (value === null) return 'nothing';
  if (typeof value !== 'string') return String(value);
  return value.length > SHOWN_CHARS
    ? `${JSON.stringify(value.slice(0, SHOWN_CHARS))}…`
    : JSON.stringify(value);
};

export function assertText(r: AssertResult, fence: string): string {
  const waited = r.timeoutMs > 0 ? ` after ${duration(r.elapsedMs)}` : '';
  const about = r.element ? locatedLines(r.element) : `- nothing: ${r.missing ?? 'no element'}`;
  if (r.failures.length === 0) {
    return `Passed: ${plural(r.checked, 'assertion')} on ${r.subject}${waited} ${fence}.\n${about}`;
  }
  const still = r.timeoutMs > 0 ? `, still after waiting ${duration(r.timeoutMs)}` : '';
  const lines = r.failures.map(
    (f) => `- ${f.property}: expected ${shown(f.expected)}, actual ${shown(f.actual)}`,
  );
  return (
    `Failed: ${r.failures.length} of ${plural(r.checked, 'assertion')} on ${r.subject}${still} ${fence}:\n` +
    `${lines.join('\n')}\nThe element checked:\n${about}`
  );
}

const percent = (share: number): string => `${Math.round(share * 1000) / 1000}%`;

export const diffPercentage = (r: VisualDiffResult): number =>
  r.totalPixels === 0 ? 0 : Math.round((r.diffPixels / r.totalPixels) * 100 * 1000) / 1000;

/** The verdict, then the fence: what was captured is named by its window's title. */
export const visualDiffText = (r: VisualDiffResult): string => `${visualDiffVerdict(r)}\n${dataNote()}`;

/** A baseline of the same shape and another size was scaled to the capture's: the answer says so. */
function scaledNote(r: VisualDiffResult): string {
  const b = r.baselineSize;
  if (!b || (b.width === r.captureSize.width && b.height === r.captureSize.height)) return '';
  return ` The baseline (${b.width}x${b.height} pixels, the same shape) was scaled to the capture's ${r.captureSize.width}x${r.captureSize.height} to compare them.`;
}

function visualDiffVerdict(r: VisualDiffResult): string {
  const size = `${r.captureSize.width}x${r.captureSize.height}`;
  const saved = r.saved ? ` Saved this capture as ${r.saved}.` : '';
  if (!r.compared) {
    return `Captured ${r.what} (${size} pixels, scale ${r.scale} per point).${saved} Compare later with visual_diff baseline: "${r.saved}".`;
  }
  const baseline = r.baseline ?? 'the baseline';
  if (r.sizeMismatch) {
    const other = r.baselineSize ? `${r.baselineSize.width}x${r.baselineSize.height}` : 'another size';
    const why = r.what.startsWith('window')
      ? 'did the window change size?'
      : 'was another area captured than the baseline?';
    return (
      `Failed: ${baseline} is ${other} pixels and the capture of ${r.what} is ${size}: their shapes differ, so no ` +
      `pixel could be compared and all ${r.totalPixels} count as changed (${why}).${saved} The image is the ` +
      'faded capture.'
    );
  }
  const verdict = r.passed ? 'Passed' : 'Failed';
  const ignored = r.ignored > 0 ? `, ${plural(r.ignored, 'region')} ignored` : '';
  return (
    `${verdict}: ${r.diffPixels} of ${r.totalPixels} pixels differ (${percent(diffPercentage(r))}, threshold ` +
    `${percent(r.thresholdPercent)}${ignored}) between ${r.what} and ${baseline}, in ${duration(r.elapsedMs)}.` +
    `${scaledNote(r)}${saved}\nThe image (${r.image?.width}x${r.image?.height}) shows changed pixels in red and anti-aliased ` +
    'ones in yellow (not counted) over the faded capture; ignored regions are outlined in blue. Capture area ' +
    `x=${r.bounds.x} y=${r.bounds.y} ${r.bounds.width}x${r.bounds.height} points.`
  );
}

/** One sentence: the score, the issues by severity, what was checked. */
export function auditSummary(r: AuditResult): string {
  const bySeverity = SEVERITIES.map((s) => [s, r.issues.filter((i) => i.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  const counts = new Map<string, number>();
  for (const issue of r.issues) counts.set(issue.rule, (counts.get(issue.rule) ?? 0) + 1);
  const rules = [...counts].sort((a, b) => b[1] - a[1]).map(([rule, n]) => `${rule} ${n}`);
  const issues =
    r.issues.length === 0
      ? 'no issues'
      : `${plural(r.issues.length, 'issue')} (${bySeverity.join(', ')}; by rule: ${rules.join(', ')})`;
  const contrast =
    r.contrastMeasured === undefined
      ? 'contrast not measured'
      : `contrast measured on screen for ${plural(r.contrastMeasured, 'text')}`;
  const keyboard =
    'skipped' in r.keyboard
      ? `keyboard not checked (${r.keyboard.skipped})`
      : `keyboard: ${plural(r.keyboard.presses, 'Tab press', 'Tab presses')}${r.keyboard.complete ? ', focus went round the whole window' : ''}`;
  return (
    `Score ${r.score}/100 at WCAG ${r.level}: ${issues} among ${plural(r.checked, 'element')} checked; ` +
    `${contrast}; ${keyboard}.`
  );
}

export function auditText(r: AuditResult, fence: string): string {
  const lines = r.issues.slice(0, AUDIT_LINES).map((i) => {
    const element = `${labelOf(i.node.role, i.node.info.name)} [ref=${i.node.ref}]`;
    return `- ${i.severity} ${i.rule} (WCAG ${i.criterion}): ${element}: ${i.problem}.\n  Fix: ${i.fix}.\n  path: ${i.node.path}`;
  });
  const more =
    r.issues.length > AUDIT_LINES ? `\n[${r.issues.length - AUDIT_LINES} more in the structured result]` : '';
  const body = lines.length > 0 ? `\n${lines.join('\n')}${more}` : '';
  return `Accessibility audit of ${r.title} in ${duration(r.elapsedMs)} ${fence}. ${auditSummary(r)}${body}`;
}
