/**
 * A workflow's steps: `{{step_N.field}}` in a step's arguments takes a field of an earlier step's structured
 * result (N counts from 0; a dotted path reaches into objects and arrays: `{{step_0.matches.0.ref}}`). No
 * expressions, no code: a reference that does not resolve fails the step before it runs, naming what is there.
 */

const REFERENCE = /\{\{\s*step_(\d+)\.([A-Za-z0-9_.]+)\s*\}\}/g;
const WHOLE = /^\{\{\s*step_(\d+)\.([A-Za-z0-9_.]+)\s*\}\}$/;

/** A step's structured result; undefined when it had none (a tool without an output schema, or a skipped step). */
export type StepResult = Record<string, unknown> | undefined;

export class TemplateError extends Error {}

function lookUp(results: readonly StepResult[], step: number, index: number, path: string): unknown {
  if (index >= step)
    throw new TemplateError(`{{step_${index}.${path}}}: step ${index} does not come before step ${step}`);
  const result = results[index];
  if (result === undefined) {
    throw new TemplateError(`{{step_${index}.${path}}}: step ${index} has no structured result to read`);
  }
  let value: unknown = result;
  let reached = `step_${index}`;
  for (const key of path.split('.')) {
    const here = value as Record<string, unknown> | unknown[] | null;
    const next =
      here !== null && typeof here === 'object' ? (here as Record<string, unknown>)[key] : undefined;
    if (next === undefined) {
      const has = here !== null && typeof here === 'object' ? Object.keys(here).slice(0, 12).join(', ') : '';
      throw new TemplateError(
        `{{step_${index}.${path}}}: ${reached} has no field "${key}"${has ? ` (it has: ${has})` : ''}`,
      );
    }
    value = next;
    reached += `.${key}`;
  }
  return value;
}

/**
 * The arguments with every reference replaced: a string that is only a reference takes the value as it is (a
 * number stays a number); a reference inside a longer string is written into it.
 */
export function fillReferences(args: unknown, results: readonly StepResult[], step: number): unknown {
  if (typeof args === 'string') {
    const whole = WHOLE.exec(args);
    if (whole) return lookUp(results, step, Number(whole[1]), whole[2] as string);
    return args.replace(REFERENCE, (_, index: string, path: string) => {
      const value = lookUp(results, step, Number(index), path);
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(args)) return args.map((item) => fillReferences(item, results, step));
  if (args !== null && typeof args === 'object') {
    return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, fillReferences(v, results, step)]));
  }
  return args;
}

/** Whether the value at `path` in the arguments holds a reference: a dry run cannot know what it will be. */
export function holdsReference(args: unknown, path: readonly PropertyKey[]): boolean {
  let value = args;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return typeof value === 'string' && new RegExp(REFERENCE.source).test(value);
}

/** The steps the arguments refer to, for a dry run to check that each comes earlier. */
export const referencedSteps = (args: unknown): number[] =>
  [...(JSON.stringify(args ?? {}).matchAll(REFERENCE) ?? [])].map((m) => Number(m[1]));
