/** Timing helpers for the bench: repeat a task, keep the samples, summarize them. */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Summary {
  median: number;
  p95: number;
  samples: number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { median: at(0.5), p95: at(0.95), samples: sorted.length };
}

/**
 * Runs `task` `warmup` times unmeasured, then `runs` times measured (ms each); with `idleMs`, pauses that long
 * (unmeasured) before each run, so that an app has finished reacting to the previous one.
 */
export async function time(
  runs: number,
  task: () => Promise<unknown>,
  warmup = 3,
  idleMs = 0,
): Promise<Summary> {
  for (let i = 0; i < warmup; i++) await task();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (idleMs > 0) await sleep(idleMs);
    const start = performance.now();
    await task();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

/** A task to time: `run` is measured; `before`, when given, runs just before it, unmeasured (a fresh ref, say). */
export type Task = (() => Promise<unknown>) | { before: () => Promise<unknown>; run: () => Promise<unknown> };

/**
 * Times tasks in turn, round after round, so that all of them see the same machine (whose load here changes by
 * the second); each warms up `warmup` times first. With `idleMs`, pauses that long (unmeasured) before each
 * measured run, so that an app has finished reacting to the run before. One summary per task, in order.
 */
export async function timeTurns(
  runs: number,
  tasks: readonly Task[],
  options: { warmup?: number; idleMs?: number } = {},
): Promise<Summary[]> {
  const steps = tasks.map((t) => (typeof t === 'function' ? { before: undefined, run: t } : t));
  const once = async (step: (typeof steps)[number]): Promise<number> => {
    if (options.idleMs) await sleep(options.idleMs);
    await step.before?.();
    const start = performance.now();
    await step.run();
    return performance.now() - start;
  };
  for (let i = 0; i < (options.warmup ?? 3); i++) for (const step of steps) await once(step);
  const samples: number[][] = steps.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, step] of steps.entries()) samples[k]?.push(await once(step));
  }
  return samples.map(summarize);
}

/** A measured figure next to its peer's, and the budget it is held to. */
export interface Row {
  what: string;
  ours: string;
  peer: string;
  /** ours / peer. */
  ratio: number;
  budget: string;
  met: boolean;
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

export function table(rows: readonly Row[]): string {
  const lines = [
    '| what | macpilot | peer | ratio | budget | met |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.what} | ${r.ours} | ${r.peer} | ${Number.isNaN(r.ratio) ? 'n/a' : `${r.ratio.toFixed(2)}x`} | ${r.budget} | ${r.met ? 'yes' : 'NO'} |`,
    ),
  ];
  return lines.join('\n');
}
