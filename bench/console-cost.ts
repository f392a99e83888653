/**
 * `npx tsx bench/console-cost.ts`: what the console costs, on a private headless desktop. The CPU time of the
 * console process and of the server it watches, over 30 s with the page open and no agent acting, then over
 * 30 s while an agent clicks 10 times a second; and the same 30 s of clicks with no console open, for the
 * server's own cost. CPU time is read from /proc (user + system), the page is Debian's Chromium, headless.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { startDesktop } from '../scripts/desktop.js';
import { CLI, type Macpilot, startMacpilot } from '../test/support/mcp.js';
import { Processes } from '../test/support/processes.js';
import { eventually, refOf } from '../test/support/text.js';

const SPAN_MS = 30_000;
/** Seconds in one of /proc's clock ticks (100 a second). */
const TICK = 1 / 100;

/** The process and its descendants (the server's helper, its screenshots). */
function tree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(tree)];
}

/** CPU seconds the process and its descendants have used so far. */
function cpuSeconds(pid: number): number {
  return tree(pid).reduce((sum, each) => {
    const fields = readFileSync(`/proc/${each}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return sum + (Number(fields[11]) + Number(fields[12])) * TICK;
  }, 0);
}

/** The share of one core `pids` used while `work` ran for SPAN_MS. */
async function cpuShare(pids: number[], work: (until: number) => Promise<void>): Promise<number[]> {
  const before = pids.map(cpuSeconds);
  const started = performance.now();
  await work(started + SPAN_MS);
  const seconds = (performance.now() - started) / 1000;
  return pids.map((pid, i) => (cpuSeconds(pid) - (before[i] ?? 0)) / seconds);
}

async function clicking(macpilot: Macpilot, ref: string, until: number): Promise<void> {
  let clicks = 0;
  const started = performance.now();
  while (performance.now() < until) {
    await macpilot.call('click_element', { ref });
    clicks++;
    const due = started + clicks * 100;
    if (due > performance.now()) await sleep(due - performance.now());
  }
  process.stdout.write(`  ${clicks} clicks in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

const desktop = await startDesktop();
const control = mkdtempSync(join(tmpdir(), 'macpilot-console-cost-'));
const env = { ...(desktop.env as Record<string, string>), MACPILOT_CONTROL_DIR: control };
const processes = new Processes(env);
const profile = mkdtempSync(join(tmpdir(), 'macpilot-console-cost-browser-'));
try {
  const macpilot = await startMacpilot({ ...env, MACPILOT_RATE_LIMITS: 'calls_per_second=50' });
  const server = macpilot.serverPid() ?? 0;
  const zenity = processes.start('zenity', ['--question', '--text', 'Clicked']);
  const tree = await eventually('zenity', async () => {
    const out = await macpilot.call('snapshot_ui', { app: String(zenity.pid) });
    return out.text.includes('button "No"') ? out.text : undefined;
  });
  // A label: clicking it changes nothing, so that the dialog stays for the whole run.
  const ref = refOf(tree, /label "Clicked"|text "Clicked"/);

  const [alone] = await cpuShare([server], (until) => clicking(macpilot, ref, until));
  const site = processes.start(process.execPath, [CLI, 'console', '--no-open']);
  const link = await eventually('the console link', async () => /(http:\/\/\S+)/.exec(site.stdout())?.[1]);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    env: { HOME: profile, PATH: process.env.PATH ?? '/usr/bin:/bin' },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage();
  await page.goto(link);
  await sleep(3000);
  const idle = await cpuShare([site.pid, server], (until) => sleep(until - performance.now()));
  const busy = await cpuShare([site.pid, server], (until) => clicking(macpilot, ref, until));
  await browser.close();
  await macpilot.close();
  process.stdout.write(
    `console open, no agent acting: console ${percent(idle[0] ?? 0)} of a core, server ${percent(idle[1] ?? 0)}\n` +
      `an agent clicking (at most 10 times a second), console open: console ${percent(busy[0] ?? 0)}, server ${percent(busy[1] ?? 0)}\n` +
      `the same clicks with no console: server ${percent(alone ?? 0)}\n`,
  );
} finally {
  await processes.stopAll();
  await desktop.stop();
  rmSync(control, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}
