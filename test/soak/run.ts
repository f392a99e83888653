/**
 * `npm run soak`: one server, driven through the MCP SDK client for a long session on a private headless desktop
 * with three apps (gtk3-demo, mousepad, gnome-calculator): 10,000 mixed calls (snapshots, searches, element reads,
 * clicks on calculator digits, typing and set_value into mousepad, the clipboard, app and window listings,
 * screenshots). It reports the server's and the helper's memory (RSS) and open file descriptors as the session goes,
 * and p50/p95 per tool over the first and the last 1,000 calls. Not part of `npm test`: it takes a while.
 *
 * `npm run soak -- --calls 2000` runs a shorter session; `--record` writes the result into docs/performance.md.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { missingPackages, startDesktop } from '../../scripts/desktop.js';
import { startMacpilot, type Macpilot } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { eventually, refOf } from '../support/text.js';
import { seededRandom } from '../support/random.js';

const PERFORMANCE_DOC = new URL('../../docs/performance.md', import.meta.url);
const WINDOW = 1000;
const GOALS = { rssGrowthMb: 50, fdGrowth: 0, p95Drift: 0.2 };
/** Tools called fewer times in either window have their p95 drift shown but not held to the goal. */
const MIN_JUDGED_CALLS = 50;

const { values: options } = parseArgs({
  options: { calls: { type: 'string', default: '10000' }, record: { type: 'boolean', default: false } },
});
const CALLS = Number(options.calls);

interface Usage {
  call: number;
  serverRssMb: number;
  serverFds: number;
  helperRssMb: number;
  helperFds: number;
  helperPid: number;
}

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

const fds = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

async function helperPid(macpilot: Macpilot): Promise<number> {
  const info = await macpilot.ok('session_info');
  const pid = Number(/pid (\d+)/.exec(info)?.[1]);
  if (!(pid > 0)) throw new Error(`session_info names no helper pid:\n${info}`);
  return pid;
}

async function usage(macpilot: Macpilot, call: number): Promise<Usage> {
  const server = macpilot.serverPid() ?? -1;
  const helper = await helperPid(macpilot);
  return {
    call,
    serverRssMb: rssMb(server),
    serverFds: fds(server),
    helperRssMb: rssMb(helper),
    helperFds: fds(helper),
    helperPid: helper,
  };
}

interface Step {
  tool: string;
  args: () => Record<string, unknown>;
  /** How often it is picked, relative to the others. */
  weight: number;
}

/** The calls of the session, with the refs they use, read once from the apps. */
async function steps(macpilot: Macpilot, pick: () => number): Promise<Step[]> {
  const one = <T>(list: readonly T[]): T => list[Math.floor(pick() * list.length)] as T;
  const calculator = await eventually('the calculator keypad', async () => {
    const out = await macpilot.call('find_elements', {
      app: 'gnome-calculator',
      role: 'button',
      max_results: 100,
    });
    return !out.isError && /button "7"/.test(out.text) ? out.text : undefined;
  });
  const names = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
  const digits = names.map((d) => refOf(calculator, new RegExp(`button "${d}"`)));
  const undo = refOf(calculator, /button "Undo"/);
  const editor = refOf(
    await eventually('the mousepad editor', async () => {
      const out = await macpilot.call('find_elements', { app: 'mousepad', role: 'textbox' });
      return !out.isError && /multiline/.test(out.text) ? out.text : undefined;
    }),
    /multiline/,
  );
  const demo = await macpilot.ok('snapshot_ui', { app: 'gtk3-demo' });
  const demoRefs = [...demo.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1] as string);
  const apps = ['gtk3-demo', 'mousepad', 'gnome-calculator'];
  let typed = 0;
  return [
    { tool: 'snapshot_ui', weight: 12, args: () => ({ app: one(apps) }) },
    { tool: 'find_elements', weight: 8, args: () => ({ app: one(apps), role: one(['button', 'menuitem']) }) },
    { tool: 'find_elements', weight: 4, args: () => ({ app: 'gnome-calculator', name: one(names) }) },
    { tool: 'get_element', weight: 8, args: () => ({ ref: one([...demoRefs, ...digits, editor]) }) },
    { tool: 'get_focused_element', weight: 2, args: () => ({ app: one(apps) }) },
    {
      tool: 'element_at',
      weight: 2,
      args: () => ({ x: Math.floor(pick() * 1280), y: Math.floor(pick() * 800) }),
    },
    // As many undos as digits, so that the calculator's display stays short.
    { tool: 'click_element', weight: 6, args: () => ({ ref: pick() < 0.5 ? undo : one(digits) }) },
    // The editor starts over now and then, so that its text (and so each walk of mousepad) stays small.
    { tool: 'set_value', weight: 3, args: () => ({ ref: editor, value: `soak ${typed}` }) },
    { tool: 'type_text', weight: 3, args: () => ({ ref: editor, text: ` word${typed++}` }) },
    { tool: 'set_clipboard', weight: 3, args: () => ({ text: `soak clipboard ${typed}` }) },
    { tool: 'get_clipboard', weight: 3, args: () => ({}) },
    { tool: 'list_apps', weight: 4, args: () => ({}) },
    { tool: 'list_windows', weight: 4, args: () => ({}) },
    { tool: 'take_screenshot', weight: 3, args: () => (pick() < 0.5 ? {} : { app: one(apps) }) },
    {
      tool: 'move_mouse',
      weight: 2,
      args: () => ({ x: Math.floor(pick() * 1280), y: Math.floor(pick() * 800) }),
    },
  ];
}

function picker(list: readonly Step[], pick: () => number): () => Step {
  const total = list.reduce((sum, s) => sum + s.weight, 0);
  return () => {
    let at = pick() * total;
    for (const step of list) {
      at -= step.weight;
      if (at < 0) return step;
    }
    return list[list.length - 1] as Step;
  };
}

interface Timed {
  tool: string;
  ms: number;
  failed: boolean;
}

const percentile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

function perTool(calls: readonly Timed[]): Map<string, { p50: number; p95: number; n: number }> {
  const byTool = new Map<string, number[]>();
  for (const c of calls) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c.ms]);
  const out = new Map<string, { p50: number; p95: number; n: number }>();
  for (const [tool, samples] of [...byTool].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = samples.sort((a, b) => a - b);
    out.set(tool, { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), n: sorted.length });
  }
  return out;
}

const ms = (v: number) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;
const mb = (v: number) => `${v.toFixed(1)} MB`;
const signed = (v: number, unit = '') => `${v >= 0 ? '+' : ''}${v.toFixed(1)}${unit}`;

function report(timed: readonly Timed[], samples: readonly Usage[], seconds: number, seed: number): string {
  // Growth is counted from the first sample after warming up (the first WINDOW calls load code, fill caches).
  const first = (samples.length > 2 ? samples[1] : samples[0]) as Usage;
  const last = samples[samples.length - 1] as Usage;
  const early = perTool(timed.slice(0, WINDOW));
  const late = perTool(timed.slice(-WINDOW));
  const failures = perTool(timed.filter((t) => t.failed));
  const restarts = new Set(samples.map((s) => s.helperPid)).size - 1;
  const growth = {
    server: last.serverRssMb - first.serverRssMb,
    helper: last.helperRssMb - first.helperRssMb,
    fds: last.serverFds - first.serverFds + (last.helperFds - first.helperFds),
  };
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.versions.node}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )} at the end; ${timed.length} calls in ${Math.round(seconds)} s (seed ${seed}), ${timed.filter((t) => t.failed).length} answered isError, ${restarts} helper restarts.`,
    '',
    '| after call | server RSS | server fds | helper RSS | helper fds |',
    '| --- | --- | --- | --- | --- |',
    ...samples.map(
      (s) => `| ${s.call} | ${mb(s.serverRssMb)} | ${s.serverFds} | ${mb(s.helperRssMb)} | ${s.helperFds} |`,
    ),
    '',
    `Growth from call ${first.call} to the end: server RSS ${signed(growth.server, ' MB')}, helper RSS ${signed(growth.helper, ' MB')}, open fds ${signed(growth.fds)} (goal: RSS growth < ${GOALS.rssGrowthMb} MB each, no fd growth).`,
    '',
    `| tool | calls (first / last ${WINDOW}) | p50 first | p50 last | p95 first | p95 last | p95 drift |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  // A p95 of a few dozen calls is their second or third slowest: such drifts are shown, not judged.
  let worstDrift = Number.NEGATIVE_INFINITY;
  for (const [tool, a] of early) {
    const b = late.get(tool);
    if (!b) continue;
    const drift = b.p95 / a.p95 - 1;
    const judged = Math.min(a.n, b.n) >= MIN_JUDGED_CALLS;
    if (judged) worstDrift = Math.max(worstDrift, drift);
    lines.push(
      `| ${tool} | ${a.n} / ${b.n} | ${ms(a.p50)} | ${ms(b.p50)} | ${ms(a.p95)} | ${ms(b.p95)} | ${signed(drift * 100, '%')}${judged ? '' : ' (few calls)'} |`,
    );
  }
  if (failures.size > 0) {
    lines.push(
      '',
      `Calls answered isError: ${[...failures].map(([tool, f]) => `${tool} ${f.n}`).join(', ')}.`,
    );
  }
  const met =
    growth.server < GOALS.rssGrowthMb &&
    growth.helper < GOALS.rssGrowthMb &&
    growth.fds <= GOALS.fdGrowth &&
    worstDrift < GOALS.p95Drift;
  lines.push(
    '',
    `Largest p95 drift among tools with at least ${MIN_JUDGED_CALLS} calls in each window ${Number.isFinite(worstDrift) ? signed(worstDrift * 100, '%') : 'none (no tool had that many)'} (goal < ${GOALS.p95Drift * 100}%). Goals ${met ? 'met' : 'not met'}.`,
  );
  return lines.join('\n');
}

function record(markdown: string): void {
  const doc = readFileSync(PERFORMANCE_DOC, 'utf8');
  const begin = '<!-- soak:begin -->';
  const end = '<!-- soak:end -->';
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error('docs/performance.md lacks the soak markers');
  writeFileSync(PERFORMANCE_DOC, `${doc.slice(0, from + begin.length)}\n${markdown}\n${doc.slice(to)}`);
}

async function main(): Promise<void> {
  const missing = missingPackages();
  if (missing.length > 0)
    throw new Error(`the soak needs: ${missing.join(', ')}; install them with scripts/install.sh`);
  const seed = Number(process.env.MACPILOT_SOAK_SEED ?? Date.now() % 1_000_000);
  const desktop = await startDesktop();
  const processes = new Processes(desktop.env);
  const macpilot = await startMacpilot({
    ...(desktop.env as Record<string, string>),
    MACPILOT_RATE_LIMITS: 'calls_per_second=1000000,calls_per_minute=9000000,writes_per_second=1000000',
  });
  try {
    for (const app of ['gtk3-demo', 'mousepad', 'gnome-calculator']) processes.start(app);
    await eventually(
      'the three apps',
      async () => {
        const apps = await macpilot.ok('list_apps');
        return ['gtk3-demo', 'mousepad', 'gnome-calculator'].every((a) => apps.includes(a))
          ? true
          : undefined;
      },
      60_000,
    );
    const pick = seededRandom(seed);
    const next = picker(await steps(macpilot, pick), pick);
    const samples = [await usage(macpilot, 0)];
    const timed: Timed[] = [];
    const started = performance.now();
    for (let i = 1; i <= CALLS; i++) {
      const step = next();
      const args = step.args();
      const t0 = performance.now();
      const result = await macpilot.client.callTool({ name: step.tool, arguments: args }, undefined, {
        timeout: 60_000,
      });
      timed.push({ tool: step.tool, ms: performance.now() - t0, failed: result.isError === true });
      if (i % WINDOW === 0 || i === CALLS) {
        samples.push(await usage(macpilot, i));
        process.stderr.write(`soak: ${i} calls, ${JSON.stringify(samples[samples.length - 1])}\n`);
      }
    }
    const markdown = report(timed, samples, (performance.now() - started) / 1000, seed);
    process.stdout.write(`${markdown}\n`);
    if (options.record) record(markdown);
  } finally {
    await macpilot.close();
    await processes.stopAll();
    await desktop.stop();
  }
}

await main();
