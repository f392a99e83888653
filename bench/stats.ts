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

/**
 * Like `time`, for tasks whose measured part ends before they do (a server's first answer, before it is
 * closed): each run returns the milliseconds it measured.
 */
export async function timeMeasured(runs: number, task: () => Promise<number>, warmup = 3): Promise<Summary> {
  for (let i = 0; i < warmup; i++) await task();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await task());
  return summarize(samples);
}

/** Times two tasks call by call in turn, so that both see the same machine; both warm up first. */
export async function timePair(
  runs: number,
  ours: () => Promise<unknown>,
  peer: () => Promise<unknown>,
  warmup = 300,
): Promise<[Summary, Summary]> {
  for (let i = 0; i < warmup; i++) {
    await ours();
    await peer();
  }
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [k, task] of [ours, peer].entries()) {
      const start = performance.now();
      await task();
      samples[k]?.push(performance.now() - start);
    }
  }
  return [summarize(samples[0]), summarize(samples[1])];
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
