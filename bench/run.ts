/**
 * `npm run bench`: macpilot's figures next to a peer's, measured in the same run on a private headless desktop,
 * for each performance budget of DESIGN.md. `npm run bench -- --record` also writes the table into
 * docs/performance.md with the date and the machine.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { missingPackages, startDesktop } from '../scripts/desktop.js';
import { HelperClient } from '../src/helper/client.js';
import { createLogger } from '../src/log.js';
import { helperCommand } from '../src/platforms/index.js';
import { CLI, type Macpilot, startMacpilot } from '../test/support/mcp.js';
import { Processes } from '../test/support/processes.js';
import { eventually, refOf } from '../test/support/text.js';
import { ms, type Row, type Summary, table, time, timeMeasured, timePair } from './stats.js';

const EVERYTHING = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const PYATSPI_WALK = fileURLToPath(new URL('./pyatspi-walk.py', import.meta.url));
const PERFORMANCE_DOC = new URL('../docs/performance.md', import.meta.url);

type Env = Record<string, string>;

/** A pause long enough for an app to finish reacting to a click. */
const APP_IDLE_MS = 300;

async function connectEverything(env: Env): Promise<Client> {
  const client = new Client({ name: 'macpilot-bench', version: '0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], env, stderr: 'ignore' }),
  );
  return client;
}

async function roundTrip(env: Env, macpilot: Macpilot): Promise<Row> {
  const everything = await connectEverything(env);
  try {
    const [ours, peer] = await timePair(
      1000,
      () => macpilot.client.callTool({ name: 'session_info', arguments: {} }),
      () => everything.callTool({ name: 'echo', arguments: { message: 'hi' } }),
    );
    return {
      what: 'trivial tool round trip (median; p95 ours/peer ' + `${ms(ours.p95)} / ${ms(peer.p95)})`,
      ours: ms(ours.median),
      peer: `${ms(peer.median)} (server-everything echo)`,
      ratio: ours.median / peer.median,
      budget: '≤ 1.2x peer',
      met: ours.median <= 1.2 * peer.median,
    };
  } finally {
    await everything.close();
  }
}

/** Spawns a server, waits for `answer`, and returns the milliseconds to it; closing is not timed. */
async function untilAnswer(args: string[], env: Env, answer: (client: Client) => Promise<unknown>) {
  const client = new Client({ name: 'macpilot-bench', version: '0' });
  const started = performance.now();
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore' }));
  await answer(client);
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

async function coldStart(env: Env): Promise<Row[]> {
  const ours = await timeMeasured(10, () => untilAnswer([CLI, 'serve'], env, (c) => c.listTools()), 1);
  // The peer's figure ends at its initialize answer: less work than ours, which also answers tools/list.
  const peer = await timeMeasured(10, () => untilAnswer([EVERYTHING], env, async () => {}), 1);
  const version = await time(15, async () => execFileSync(process.execPath, [CLI, '--version']), 2);
  const help = await time(15, async () => execFileSync(process.execPath, [CLI, '--help']), 2);
  const node = await time(15, async () => execFileSync(process.execPath, ['-e', '']), 2);
  const cli = (what: string, ours: Summary): Row => ({
    what: `macpilot ${what}: spawn to exit`,
    ours: ms(ours.median),
    peer: `${ms(node.median)} (node -e '')`,
    ratio: ours.median / node.median,
    budget: '≤ 1.3x peer',
    met: ours.median <= 1.3 * node.median,
  });
  return [
    {
      what: 'cold start: spawn to a tools/list answer (peer: to its initialize answer; closing not timed)',
      ours: ms(ours.median),
      peer: `${ms(peer.median)} (server-everything)`,
      ratio: ours.median / peer.median,
      budget: '≤ 0.5x peer',
      met: ours.median <= 0.5 * peer.median,
    },
    cli('--version', version),
    cli('--help', help),
  ];
}

function pyatspiWalk(env: Env, app: string): { nodes: number; median: number } {
  const out = execFileSync('/usr/bin/python3', [PYATSPI_WALK, app, '9'], { env }).toString();
  return JSON.parse(out) as { nodes: number; median: number };
}

async function snapshots(env: Env, helper: HelperClient, apps: readonly string[]): Promise<Row[]> {
  const rows: Row[] = [];
  const { apps: running } = await helper.call('apps.list', {});
  for (const name of apps) {
    const app = running.find((a) => a.name === name);
    if (!app) throw new Error(`${name} is not on the accessibility bus`);
    for (const includeHidden of [true, false]) {
      let nodes = 0;
      const ours = await time(25, async () => {
        const walked = await helper.call('ax.snapshot', {
          root: app.id,
          depth: 64,
          maxNodes: 50_000,
          includeHidden,
          maxValueLength: 200,
        });
        nodes = walked.nodeCount;
      });
      const perElement = ours.median / nodes;
      if (includeHidden) {
        const peer = pyatspiWalk(env, name);
        rows.push({
          what: `snapshot of ${name}, every element (${nodes}; pyatspi ${peer.nodes})`,
          ours: `${perElement.toFixed(3)} ms/element (${ms(ours.median)})`,
          peer: `${(peer.median / peer.nodes).toFixed(3)} ms/element (${ms(peer.median)}, pyatspi walk)`,
          ratio: ours.median / peer.median,
          budget: '≤ 0.25 ms/element and ≤ 0.5x peer',
          met: perElement <= 0.25 && ours.median <= 0.5 * peer.median,
        });
      } else {
        rows.push({
          what: `snapshot of ${name}, elements on screen (${nodes})`,
          ours: `${perElement.toFixed(3)} ms/element (${ms(ours.median)})`,
          peer: 'n/a',
          ratio: Number.NaN,
          budget: '≤ 0.25 ms/element',
          met: perElement <= 0.25,
        });
      }
    }
  }
  return rows;
}

/** The centre of an element, from get_element's "bounds: x=.. y=.. width=.. height=.." line. */
function centreOf(detail: string): { x: number; y: number } {
  const m = /bounds: x=(-?[\d.]+) y=(-?[\d.]+) width=([\d.]+) height=([\d.]+)/.exec(detail);
  if (!m) throw new Error(`no bounds in:\n${detail}`);
  const [x, y, w, h] = m.slice(1).map(Number) as [number, number, number, number];
  return { x: Math.round(x + w / 2), y: Math.round(y + h / 2) };
}

async function clicks(
  env: Env,
  macpilot: Macpilot,
  helper: HelperClient,
  processes: Processes,
): Promise<Row[]> {
  const launched = await macpilot.ok('launch_app', { name: 'Calculator' });
  processes.track(Number(/pid (\d+)/.exec(launched)?.[1]));
  const found = await eventually('the calculator keypad', async () => {
    const out = await macpilot.call('find_elements', { app: 'gnome-calculator', role: 'button', name: '1' });
    return out.isError || !/\[ref=/.test(out.text) ? undefined : out.text;
  });
  const ref = refOf(found, /button/);
  const { x, y } = centreOf(await macpilot.ok('get_element', { ref }));

  const tool = await time(15, () => macpilot.ok('click_element', { ref }), 3, APP_IDLE_MS);
  const { apps } = await helper.call('apps.list', {});
  const calculator = apps.find((a) => a.name === 'gnome-calculator');
  if (!calculator) throw new Error('gnome-calculator is not on the accessibility bus');
  const handle = await findHandle(helper, calculator.id, '1');
  // Each press waits until the calculator has finished reacting to the one before: the budget leaves out the
  // app's own settling, and xdotool gets the same pauses.
  const perform = await time(
    20,
    () => helper.call('ax.perform', { id: handle, action: 'click' }),
    3,
    APP_IDLE_MS,
  );
  const xdotool = await time(
    15,
    async () => {
      execFileSync('xdotool', ['mousemove', String(x), String(y), 'click', '1'], { env });
    },
    3,
    APP_IDLE_MS,
  );
  return [
    {
      what: 'click by ref: the press itself (helper round trip, no diff; app idle before each)',
      ours: ms(perform.median),
      peer: `${ms(xdotool.median)} (xdotool mousemove + click)`,
      ratio: perform.median / xdotool.median,
      budget: '≤ 20 ms',
      met: perform.median <= 20,
    },
    {
      what: 'click_element tool call, diff and settling included',
      ours: ms(tool.median),
      peer: `${ms(xdotool.median)} (xdotool, no result)`,
      ratio: tool.median / xdotool.median,
      budget: 'informative',
      met: true,
    },
  ];
}

async function findHandle(helper: HelperClient, root: string, name: string): Promise<string> {
  const { root: tree } = await helper.call('ax.snapshot', {
    root,
    depth: 64,
    maxNodes: 50_000,
    includeHidden: false,
    maxValueLength: 0,
  });
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    if (node.nativeRole === 'push button' && node.name.split(' ')[0] === name) return node.id;
    stack.push(...(node.children ?? []));
  }
  throw new Error(`no button ${name}`);
}

async function screenshots(env: Env, macpilot: Macpilot, helper: HelperClient): Promise<Row[]> {
  const { displays } = await helper.call('screen.displays', {});
  const display = displays[0];
  if (!display) throw new Error('no display');
  const capture = await time(20, () =>
    helper.call('screen.capture', {
      target: { display: display.id },
      format: 'png',
      quality: 90,
      maxLongEdge: 4096,
    }),
  );
  const tool = await time(20, () => macpilot.ok('take_screenshot', { format: 'png' }));
  const file = join(tmpdir(), `macpilot-bench-${process.pid}.png`);
  const peer = await time(10, async () => {
    execFileSync('import', ['-window', 'root', file], { env });
  });
  const size = `${display.bounds.width}x${display.bounds.height}`;
  return [
    {
      what: `screenshot ${size} to PNG (helper capture + encode)`,
      ours: ms(capture.median),
      peer: `${ms(peer.median)} (import -window root)`,
      ratio: capture.median / peer.median,
      budget: '≤ 40 ms and ≤ 0.25x peer',
      met: capture.median <= 40 && capture.median <= 0.25 * peer.median,
    },
    {
      what: `take_screenshot tool call, ${size} PNG (scaled to 1568 px long edge if larger)`,
      ours: ms(tool.median),
      peer: `${ms(peer.median)} (import -window root)`,
      ratio: tool.median / peer.median,
      budget: 'informative',
      met: true,
    },
  ];
}

function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `${new Date().toISOString().slice(0, 10)}, ${cpu}, ${cpus().length} cores, Node ${process.versions.node}, load ${load}`;
}

function record(markdown: string): void {
  const doc = readFileSync(PERFORMANCE_DOC, 'utf8');
  const begin = '<!-- bench:begin -->';
  const end = '<!-- bench:end -->';
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error('docs/performance.md lacks the bench markers');
  writeFileSync(PERFORMANCE_DOC, `${doc.slice(0, from + begin.length)}\n${markdown}\n${doc.slice(to)}`);
}

async function main(): Promise<void> {
  const missing = missingPackages('bench');
  if (missing.length > 0) {
    throw new Error(`the bench needs: ${missing.join(', ')}; install them with scripts/install.sh`);
  }
  const desktop = await startDesktop();
  const env = desktop.env as Env;
  const processes = new Processes(env);
  const helper = new HelperClient({ helper: { ...helperCommand(), env }, log: createLogger('warn') });
  // The bench calls far faster than an agent does: limits high enough not to refuse it (they still run).
  const macpilot = await startMacpilot({
    ...env,
    MACPILOT_LOG_LEVEL: 'warn',
    MACPILOT_RATE_LIMITS: 'calls_per_second=1000000,calls_per_minute=9000000,writes_per_second=1000000',
  });
  try {
    processes.start('gtk3-demo');
    processes.start('mousepad');
    await eventually('gtk3-demo and mousepad', async () => {
      const { apps } = await helper.call('apps.list', {});
      return apps.some((a) => a.name === 'gtk3-demo') && apps.some((a) => a.name === 'mousepad')
        ? true
        : undefined;
    });
    const rows: Row[] = [];
    // A section that fails still gets its row, marked not met: a budget is never dropped silently.
    const section = async (name: string, run: () => Promise<Row | Row[]>) => {
      process.stderr.write(`bench: ${name}...\n`);
      try {
        rows.push(...[await run()].flat());
      } catch (error) {
        const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
        rows.push({
          what: name,
          ours: `failed: ${why}`,
          peer: '',
          ratio: Number.NaN,
          budget: '',
          met: false,
        });
      }
    };
    await section('round trip', () => roundTrip(env, macpilot));
    await section('cold start', () => coldStart(env));
    await section('snapshots', () => snapshots(env, helper, ['gtk3-demo', 'mousepad']));
    await section('clicks', () => clicks(env, macpilot, helper, processes));
    await section('screenshots', () => screenshots(env, macpilot, helper));
    const markdown = `Measured ${machine()}.\n\n${table(rows)}`;
    process.stdout.write(`${markdown}\n`);
    if (process.argv.includes('--record')) record(markdown);
  } finally {
    await macpilot.close();
    await helper.close();
    await processes.stopAll();
    await desktop.stop();
  }
}

await main();
