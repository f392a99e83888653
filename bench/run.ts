/**
 * `npm run bench`: macpilot's figures next to a peer's, measured in the same run on a private headless desktop,
 * for each performance budget of docs/performance.md. `npm run bench -- --record` also writes the table into
 * docs/performance.md with the date and the machine; `--only=ocr,screenshots` runs just those sections (their
 * names are the `section` calls below).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { missingPackages, startDesktop } from '../scripts/desktop.js';
import { HelperClient } from '../src/helper-client/client.js';
import { createLogger } from '../src/log.js';
import { helperCommand } from '../src/platforms/helper-command.js';
import { CLI, type Macpilot, startMacpilot } from '../test/support/mcp.js';
import { Processes } from '../test/support/processes.js';
import { eventually } from '../test/support/text.js';
import {
  AgentDevice,
  callText,
  computerUseMcp,
  connect,
  type Env,
  installPeers,
  tokenCounter,
} from './peers.js';
import { ms, type Row, type Summary, summarize, table, time, timeTurns } from './stats.js';

const EVERYTHING = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const PYATSPI_WALK = fileURLToPath(new URL('./pyatspi-walk.py', import.meta.url));
/** The long list both sides read: a zenity list of this many rows, and the row searched for. */
const LIST_ROWS = 10_000;
const ROW_SEARCHED = '9876';
const PEER_CAPTURE = fileURLToPath(new URL('./peer-capture.mjs', import.meta.url));
const PERFORMANCE_DOC = new URL('../docs/performance.md', import.meta.url);

/** A pause long enough for an app to finish reacting to a click. */
const APP_IDLE_MS = 300;
/** The rate limits raised so that the bench's thousands of calls a second are measured, not refused. */
const BENCH_LIMITS = 'calls_per_second=1000000,calls_per_minute=9000000,writes_per_second=1000000';
/** The calculator's digits the click rows press in turn. */
const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** The calculator every side uses, by its pid (two of them would be ambiguous by name). */
interface Apps {
  calculatorPid: number;
}

/** The peers of this run; each is undefined when it could not be installed or started (its rows say why). */
interface Peers {
  computerUse?: Client;
  agentDevice?: AgentDevice;
  modules?: string;
  tokens?: (text: string) => number;
  failures: Record<string, string>;
}

/** An error's message on one line, for a table cell. */
const why = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').slice(0, 300);

/** A row whose peer could not run: our figure stands, the budget against the peer is not met. */
function peerMissing(what: string, ours: string, peer: string, budget: string): Row {
  return { what, ours, peer: `not measured: ${peer}`, ratio: Number.NaN, budget, met: false };
}

async function roundTrip(env: Env, macpilot: Macpilot): Promise<Row> {
  const everything = await connect([EVERYTHING], env);
  try {
    const [ours, peer] = (await timeTurns(
      1000,
      [
        () => macpilot.client.callTool({ name: 'session_info', arguments: {} }),
        () => everything.callTool({ name: 'echo', arguments: { message: 'hi' } }),
      ],
      { warmup: 300 },
    )) as [Summary, Summary];
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
  const started = performance.now();
  const client = await connect(args, env);
  await answer(client);
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

async function coldStart(env: Env): Promise<Row[]> {
  // In turns, one start of each after the other, so that both see the same load. Ours ends at its tools/list
  // answer, the peer's at its initialize answer: less work than ours. The answer is asked for with request(),
  // not listTools(), which after the answer compiles a validator for every output schema in the client (50-300
  // ms of the bench's own CPU under load): the server's answer is what is timed, on both sides.
  const toolsList = (c: Client) => c.request({ method: 'tools/list' }, ListToolsResultSchema);
  const starts: [number[], number[]] = [[], []];
  for (let i = 0; i < 11; i++) {
    const ours = await untilAnswer([CLI, 'serve'], env, toolsList);
    const peer = await untilAnswer([EVERYTHING], env, async () => {});
    if (i === 0) continue; // the first start of each fills the disk cache
    starts[0].push(ours);
    starts[1].push(peer);
  }
  const [ours, peer] = starts.map(summarize) as [Summary, Summary];
  const run = (args: string[]) => async () => execFileSync(process.execPath, args);
  const [version, help, node] = (await timeTurns(
    15,
    [run([CLI, '--version']), run([CLI, '--help']), run(['-e', ''])],
    { warmup: 2 },
  )) as [Summary, Summary, Summary];
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

/** pyatspi walking an app (or searching it for an element named `find`), `runs` times after one more. */
function pyatspiWalk(env: Env, app: string, runs = 9, find?: string): { nodes: number; median: number } {
  const args = [PYATSPI_WALK, app, String(runs), ...(find === undefined ? [] : [find])];
  const out = execFileSync('/usr/bin/python3', args, { env }).toString();
  return JSON.parse(out) as { nodes: number; median: number };
}

/** The helper's walks, beside a pyatspi walk of the same elements. */
async function helperSnapshots(env: Env, helper: HelperClient, apps: readonly string[]): Promise<Row[]> {
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
          what: `helper walk of ${name}, every element (${nodes}; pyatspi ${peer.nodes})`,
          ours: `${perElement.toFixed(3)} ms/element (${ms(ours.median)})`,
          peer: `${(peer.median / peer.nodes).toFixed(3)} ms/element (${ms(peer.median)}, pyatspi walk)`,
          ratio: ours.median / peer.median,
          budget: '≤ 0.5x peer',
          met: ours.median <= 0.5 * peer.median,
        });
      } else {
        rows.push({
          what: `helper walk of ${name}, elements on screen (${nodes})`,
          ours: `${perElement.toFixed(3)} ms/element (${ms(ours.median)})`,
          peer: 'n/a',
          ratio: Number.NaN,
          budget: 'informative',
          met: true,
        });
      }
    }
  }
  return rows;
}

/**
 * A zenity list of 10,000 rows: snapshot_ui (time and tokens) beside pyatspi walking the same app, and
 * find_elements of row 9876 beside pyatspi searching for it depth first.
 */
async function longLists(env: Env, macpilot: Macpilot, processes: Processes, peers: Peers): Promise<Row[]> {
  const rows = Array.from({ length: LIST_ROWS }, (_, i) => String(i + 1));
  const zenity = processes.start('zenity', ['--list', '--column', 'n', '--height', '400', ...rows]);
  try {
    const app = String(zenity.pid);
    await eventually('the list of 10,000 rows', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && out.text.includes('cell "1"') ? true : undefined;
    });
    let answer = '';
    const ours = await time(15, async () => {
      answer = await macpilot.ok('snapshot_ui', { app });
    });
    const walk = pyatspiWalk(env, 'zenity', 3);
    const tokens = peers.tokens?.(answer);
    let found = '';
    const search = await time(9, async () => {
      found = await macpilot.ok('find_elements', {
        app,
        text: ROW_SEARCHED,
        match: 'exact',
        include_hidden: true,
      });
    });
    if (!found.includes(`cell "${ROW_SEARCHED}"`))
      throw new Error(`find_elements did not find the row: ${found}`);
    const peerFind = pyatspiWalk(env, 'zenity', 3, ROW_SEARCHED);
    return [
      {
        what: `snapshot_ui tool call of a zenity list of ${LIST_ROWS.toLocaleString('en')} rows (${elementsOf(answer)} elements on screen)`,
        ours: ms(ours.median),
        peer: `${ms(walk.median)} (pyatspi walk of its ${walk.nodes} elements)`,
        ratio: ours.median / walk.median,
        budget: '≤ 150 ms',
        met: ours.median <= 150,
      },
      tokens === undefined
        ? peerMissing(
            'the same answer in tokens',
            `${answer.length} characters`,
            peers.failures.tokens ?? '',
            '≤ 25,000 tokens',
          )
        : {
            what: 'the same answer in tokens',
            ours: `${tokens} tokens (${answer.length} characters)`,
            peer: 'n/a',
            ratio: Number.NaN,
            budget: '≤ 25,000 tokens',
            met: tokens <= 25_000,
          },
      {
        what: `find_elements of row "${ROW_SEARCHED}" in it`,
        ours: ms(search.median),
        peer: `${ms(peerFind.median)} (pyatspi, depth first until it, ${peerFind.nodes} elements)`,
        ratio: search.median / peerFind.median,
        budget: '≤ 500 ms',
        met: search.median <= 500,
      },
    ];
  } finally {
    await processes.stop(zenity.pid);
  }
}

/** Elements in a snapshot_ui answer: its lines with a ref. */
const elementsOf = (snapshot: string): number =>
  snapshot.split('\n').filter((l) => /\[ref=e\d+\]/.test(l)).length;
/** Elements in agent-device's snapshot: its lines with a ref. */
const peerElementsOf = (snapshot: string): number =>
  snapshot.split('\n').filter((l) => /^\s*@e\d+ /.test(l)).length;

const perElement = (summary: Summary, elements: number) =>
  `${(summary.median / elements).toFixed(3)} ms/element (${ms(summary.median)} for ${elements})`;

/** snapshot_ui through the SDK client, per element and in tokens; the calculator beside agent-device's snapshot. */
async function toolSnapshots(macpilot: Macpilot, apps: Apps, peers: Peers): Promise<Row[]> {
  const rows: Row[] = [];
  const tokenRows: Row[] = [];
  const targets = [
    { name: 'gtk3-demo', app: 'gtk3-demo' },
    { name: 'mousepad', app: 'mousepad' },
    { name: 'gnome-calculator', app: String(apps.calculatorPid) },
  ];
  for (const { name, app } of targets) {
    let answer = '';
    const snapshot = async () => {
      answer = await macpilot.ok('snapshot_ui', { app });
    };
    const what = `snapshot_ui tool call of ${name}, elements on screen`;
    const peer = name === 'gnome-calculator' ? peers.agentDevice : undefined;
    let peerAnswer = '';
    const peerSnapshot = async () => {
      peerAnswer = (await peer?.snapshot()) ?? '';
    };
    const [ours, theirs] = await timeTurns(peer ? 15 : 25, peer ? [snapshot, peerSnapshot] : [snapshot]);
    if (!ours) throw new Error('no timing');
    const elements = elementsOf(answer);
    const tokens = peers.tokens?.(answer);
    const budget = '≤ 0.25 ms/element';
    const met = ours.median / elements <= 0.25;
    if (name !== 'gnome-calculator') {
      rows.push({ what, ours: perElement(ours, elements), peer: 'n/a', ratio: Number.NaN, budget, met });
    } else if (!theirs) {
      rows.push(
        peerMissing(
          what,
          perElement(ours, elements),
          peers.failures.agentDevice ?? '',
          `${budget} and ≤ 0.25x peer`,
        ),
      );
    } else {
      const peerElements = peerElementsOf(peerAnswer);
      rows.push({
        what,
        ours: perElement(ours, elements),
        peer: `${perElement(theirs, peerElements)} (agent-device snapshot -i)`,
        ratio: ours.median / theirs.median,
        budget: `${budget} and ≤ 0.25x peer`,
        met: met && ours.median <= 0.25 * theirs.median,
      });
    }
    if (tokens !== undefined) {
      const peerTokens = theirs && peers.tokens ? peers.tokens(peerAnswer) : undefined;
      const peerElements = peerElementsOf(peerAnswer);
      tokenRows.push({
        what: `snapshot_ui answer of ${name}: tokens per element`,
        ours: `${(tokens / elements).toFixed(1)} tokens/element (${tokens} for ${elements})`,
        peer:
          peerTokens === undefined
            ? 'n/a'
            : `${(peerTokens / peerElements).toFixed(1)} tokens/element (${peerTokens} for ${peerElements}, agent-device)`,
        ratio: peerTokens === undefined ? Number.NaN : tokens / elements / (peerTokens / peerElements),
        budget: 'informative',
        met: true,
      });
    } else {
      tokenRows.push(
        peerMissing(
          `snapshot_ui answer of ${name}: tokens per element`,
          '',
          peers.failures.tokens ?? '',
          'informative',
        ),
      );
    }
  }
  return [...rows, ...tokenRows];
}

/** The centre of an element, from get_element's "bounds: x=.. y=.. width=.. height=.." line. */
function centreOf(detail: string): { x: number; y: number } {
  const m = /bounds: x=(-?[\d.]+) y=(-?[\d.]+) width=([\d.]+) height=([\d.]+)/.exec(detail);
  if (!m) throw new Error(`no bounds in:\n${detail}`);
  const [x, y, w, h] = m.slice(1).map(Number) as [number, number, number, number];
  return { x: Math.round(x + w / 2), y: Math.round(y + h / 2) };
}

/** The calculator's digit buttons: their refs and centres, from find_elements and get_element. */
async function digitButtons(macpilot: Macpilot, pid: number) {
  const found = await eventually('the calculator keypad', async () => {
    const out = await macpilot.call('find_elements', { app: String(pid), role: 'button', max_results: 100 });
    return out.isError || !/button "9"/.test(out.text) ? undefined : out.text;
  });
  const buttons = [];
  // One at a time: the policy lets an agent's calls run only so many at once.
  for (const digit of DIGITS) {
    const line = found.split('\n').find((l) => l.includes(`button "${digit}"`));
    const ref = line && /\[ref=(e\d+)\]/.exec(line)?.[1];
    if (!ref) throw new Error(`no button "${digit}" in:\n${found}`);
    buttons.push({ digit, ref, ...centreOf(await macpilot.ok('get_element', { ref })) });
  }
  return buttons;
}

/** Cycles through the digits: each call of the returned function gives the next one. */
function cycle<T>(items: readonly T[]): () => T {
  let next = 0;
  return () => items[next++ % items.length] as T;
}

async function clicks(
  env: Env,
  macpilot: Macpilot,
  helper: HelperClient,
  apps: Apps,
  peers: Peers,
): Promise<Row[]> {
  const buttons = await digitButtons(macpilot, apps.calculatorPid);
  const { apps: running } = await helper.call('apps.list', {});
  const calculator = running.find((a) => a.pid === apps.calculatorPid);
  if (!calculator) throw new Error('gnome-calculator is not on the accessibility bus');
  const handle = await findHandle(helper, calculator.id, '1');
  const one = buttons[0];
  if (!one) throw new Error('no button 1');
  const xdotoolClick = (at: { x: number; y: number }) => async () => {
    execFileSync('xdotool', ['mousemove', String(at.x), String(at.y), 'click', '1'], { env });
  };
  // The press itself, beside xdotool on the same button. Each press waits until the calculator has finished
  // reacting to the one before: the budget leaves out the app's own settling, and every side gets the pauses.
  const [perform, xdotoolOne] = (await timeTurns(
    20,
    [() => helper.call('ax.perform', { id: handle, action: 'click' }), xdotoolClick(one)],
    { idleMs: APP_IDLE_MS },
  )) as [Summary, Summary];
  const rows: Row[] = [
    {
      what: 'click by ref: the press itself (helper ax.perform, no diff; app idle before each)',
      ours: ms(perform.median),
      peer: `${ms(xdotoolOne.median)} (xdotool mousemove + click)`,
      ratio: perform.median / xdotoolOne.median,
      budget: '≤ 20 ms',
      met: perform.median <= 20,
    },
  ];

  // click_element with its what-changed answer, beside agent-device's click by ref (its refs expire after any
  // action, so a fresh snapshot comes before each of its clicks, not timed).
  const ourDigit = cycle(buttons);
  const clickElement = () => macpilot.ok('click_element', { ref: ourDigit().ref });
  const what = "click_element on gnome-calculator's digits, with its what-changed answer (tool call)";
  const agentDevice = peers.agentDevice;
  if (agentDevice) {
    const peerDigit = cycle(DIGITS);
    let ref = '';
    const [ours, peer] = (await timeTurns(
      15,
      [
        clickElement,
        {
          before: async () => {
            const digit = peerDigit();
            ref = AgentDevice.refOf(await agentDevice.snapshot(), `${digit} ${digit}`);
          },
          run: () => agentDevice.clickRef(ref),
        },
      ],
      { idleMs: APP_IDLE_MS },
    )) as [Summary, Summary];
    rows.push({
      what: `${what}, each after the peer's click`,
      ours: ms(ours.median),
      peer: `${ms(peer.median)} (agent-device click by ref, answer "Tapped")`,
      ratio: ours.median / peer.median,
      budget: '≤ 0.5x peer',
      met: ours.median <= 0.5 * peer.median,
    });
  } else {
    const [ours] = (await timeTurns(15, [clickElement], { idleMs: APP_IDLE_MS })) as [Summary];
    rows.push(
      peerMissing(what, ms(ours.median), peers.failures.agentDevice ?? '', '≤ 100 ms and ≤ 0.5x peer'),
    );
  }

  // The same clicks one after another, as an agent makes them: each follows macpilot's own last click, whose
  // walk is still current, instead of a change made behind macpilot's back.
  const [series] = (await timeTurns(15, [clickElement], { idleMs: APP_IDLE_MS })) as [Summary];
  rows.push({
    what: `${what}, each after the previous one`,
    ours: ms(series.median),
    peer: 'n/a',
    ratio: Number.NaN,
    budget: '≤ 100 ms',
    met: series.median <= 100,
  });

  // click {x, y} with its answer, beside xdotool's one-process click and computer-use-mcp's blind left_click.
  const ourPoint = cycle(buttons);
  const xdotoolPoint = cycle(buttons);
  const peerPoint = cycle(buttons);
  const clickPoint = async () => {
    const { x, y } = ourPoint();
    await macpilot.ok('click', { x, y });
  };
  const computerUse = peers.computerUse;
  const tasks = [clickPoint, () => xdotoolClick(xdotoolPoint())()];
  if (computerUse) {
    tasks.push(async () => {
      const { x, y } = peerPoint();
      await callText(computerUse, 'computer', { action: 'left_click', coordinate: [x, y] });
    });
  }
  const [ours, xdotool, blind] = await timeTurns(15, tasks, { idleMs: APP_IDLE_MS });
  if (!ours || !xdotool) throw new Error('no timing');
  const whatPoint = "click {x, y} on gnome-calculator's digits, with its what-changed answer (tool call)";
  rows.push({
    what: whatPoint,
    ours: ms(ours.median),
    peer: `${ms(xdotool.median)} (xdotool mousemove + click, one process)`,
    ratio: ours.median / xdotool.median,
    budget: '≤ 0.6x peer',
    met: ours.median <= 0.6 * xdotool.median,
  });
  rows.push(
    blind
      ? {
          what: whatPoint,
          ours: ms(ours.median),
          peer: `${ms(blind.median)} (computer-use-mcp left_click, answer "ok")`,
          ratio: ours.median / blind.median,
          budget: '≤ 1x peer',
          met: ours.median <= blind.median,
        }
      : peerMissing(whatPoint, ms(ours.median), peers.failures.computerUse ?? '', '≤ 1x peer'),
  );
  return rows;
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

async function screenshots(env: Env, macpilot: Macpilot, helper: HelperClient, peers: Peers): Promise<Row[]> {
  const { displays } = await helper.call('screen.displays', {});
  const display = displays.find((d) => d.primary) ?? displays[0];
  if (!display) throw new Error('no display');
  const size = `${display.bounds.width}x${display.bounds.height}`;
  const file = join(tmpdir(), `macpilot-bench-${process.pid}.png`);
  const capture = () =>
    helper.call('screen.capture', {
      target: { display: display.id },
      format: 'png',
      quality: 80,
      maxLongEdge: 1568,
    });
  const takeScreenshot = () => macpilot.ok('take_screenshot', { format: 'png' });
  try {
    const [helperCapture, tool, imagemagick] = (await timeTurns(20, [
      capture,
      takeScreenshot,
      async () => execFileSync('import', ['-window', 'root', file], { env }),
    ])) as [Summary, Summary, Summary];
    const rows: Row[] = [
      {
        what: `screenshot ${size} to PNG (helper capture + encode)`,
        ours: ms(helperCapture.median),
        peer: `${ms(imagemagick.median)} (import -window root)`,
        ratio: helperCapture.median / imagemagick.median,
        budget: '≤ 40 ms and ≤ 0.25x peer',
        met: helperCapture.median <= 40 && helperCapture.median <= 0.25 * imagemagick.median,
      },
      {
        what: `take_screenshot tool call, ${size} PNG`,
        ours: ms(tool.median),
        peer: `${ms(imagemagick.median)} (import -window root)`,
        ratio: tool.median / imagemagick.median,
        budget: '≤ 0.25x peer',
        met: tool.median <= 0.25 * imagemagick.median,
      },
    ];
    const whatTool = `take_screenshot tool call, ${size} PNG`;
    const computerUse = peers.computerUse;
    if (!computerUse || !peers.modules) {
      const missing = peers.failures.computerUse ?? '';
      rows.push(peerMissing(whatTool, ms(tool.median), missing, '≤ 0.1x peer'));
      rows.push(peerMissing(whatTool, ms(tool.median), missing, '≤ 1x peer'));
      return rows;
    }
    // Its tool call sleeps 1 s before capturing: few runs, in turns with ours.
    const [oursBeside, theirs] = (await timeTurns(
      7,
      [takeScreenshot, () => callText(computerUse, 'computer', { action: 'get_screenshot' })],
      { warmup: 1 },
    )) as [Summary, Summary];
    const raw = peerCapture(env, peers.modules);
    const rawTimes: number[] = [];
    const [oursAfter] = (await timeTurns(20, [
      takeScreenshot,
      async () => rawTimes.push(await raw.capture()),
    ]).finally(() => raw.close())) as [Summary];
    // Its own in-process figure, without the pipe that asks for each capture; the warm-up runs are left out.
    const rawCapture = summarize(rawTimes.slice(-20));
    rows.push(
      {
        what: whatTool,
        ours: ms(oursBeside.median),
        peer: `${ms(theirs.median)} (computer-use-mcp get_screenshot tool call, its 1 s sleep included)`,
        ratio: oursBeside.median / theirs.median,
        budget: '≤ 0.1x peer',
        met: oursBeside.median <= 0.1 * theirs.median,
      },
      {
        what: whatTool,
        ours: ms(oursAfter.median),
        peer: `${ms(rawCapture.median)} (computer-use-mcp's capture without the sleep: nut.js grab + RGB + PNG, in-process)`,
        ratio: oursAfter.median / rawCapture.median,
        budget: '≤ 1x peer',
        met: oursAfter.median <= rawCapture.median,
      },
    );
    return rows;
  } finally {
    rmSync(file, { force: true });
  }
}

/** bench/peer-capture.mjs kept running: each capture() asks it for one and returns the milliseconds it took. */
function peerCapture(env: Env, modules: string) {
  const child = spawn(process.execPath, [PEER_CAPTURE, modules], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: ((ms: number) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(Number(line)));
  return {
    capture: () =>
      new Promise<number>((resolve, reject) => {
        if (child.exitCode !== null) reject(new Error('the peer capture process ended'));
        waiting.push(resolve);
        child.stdin.write('\n');
      }),
    close: () => {
      child.stdin.end();
    },
  };
}

/**
 * OCR: read_text warm on the whole screen and on gtk3-demo's window, and find_text there, beside Debian's
 * tesseract command on PNGs of the same areas. OMP_THREAD_LIMIT=1 keeps it from spinning on 2 cores (3.6-5.8 s
 * instead of 0.6 s), which would not be a fair peer.
 */
async function ocr(env: Env, macpilot: Macpilot, helper: HelperClient): Promise<Row[]> {
  const { displays } = await helper.call('screen.displays', {});
  const display = displays.find((d) => d.primary) ?? displays[0];
  if (!display) throw new Error('no display');
  const { windows } = await helper.call('windows.list', { includeMinimized: false });
  const window = windows.find((w) => w.app === 'gtk3-demo');
  if (!window) throw new Error("gtk3-demo's window is not listed");
  // In front of mousepad's, so that its text is what is on screen there.
  await helper.call('windows.focus', { id: window.id });
  await sleep(APP_IDLE_MS);
  const png = async (target: { display: string } | { window: string }, name: string) => {
    const shot = await helper.call('screen.capture', {
      target,
      format: 'png',
      quality: 100,
      maxLongEdge: 16_384,
    });
    const file = join(tmpdir(), `macpilot-bench-ocr-${name}-${process.pid}.png`);
    writeFileSync(file, Buffer.from(shot.data, 'base64'));
    return { file, size: `${shot.width}x${shot.height}` };
  };
  const screen = await png({ display: display.id }, 'screen');
  const frame = await png({ window: window.id }, 'window');
  const tesseract = (file: string) => async () =>
    execFileSync('tesseract', [file, '-'], {
      env: { ...env, OMP_THREAD_LIMIT: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  try {
    const [whole, windowRead, find, peerWhole, peerWindow] = (await timeTurns(
      15,
      [
        () => macpilot.ok('read_text', {}),
        () => macpilot.ok('read_text', { app: 'gtk3-demo' }),
        () => macpilot.ok('find_text', { text: 'Gestures', app: 'gtk3-demo' }),
        tesseract(screen.file),
        tesseract(frame.file),
      ],
      { warmup: 2 },
    )) as [Summary, Summary, Summary, Summary, Summary];
    const peerOf = (summary: Summary, size: string) =>
      `${ms(summary.median)} (tesseract, OMP_THREAD_LIMIT=1, ${size} PNG)`;
    return [
      {
        what: `read_text, whole screen ${screen.size}, warm (capture + OCR)`,
        ours: ms(whole.median),
        peer: peerOf(peerWhole, screen.size),
        ratio: whole.median / peerWhole.median,
        budget: '≤ 1x peer',
        met: whole.median <= peerWhole.median,
      },
      {
        what: `read_text, gtk3-demo's window ${frame.size}, warm`,
        ours: ms(windowRead.median),
        peer: peerOf(peerWhole, screen.size),
        ratio: windowRead.median / peerWhole.median,
        budget: '≤ 0.5x peer (whole screen)',
        met: windowRead.median <= 0.5 * peerWhole.median,
      },
      {
        what: `find_text "Gestures" in gtk3-demo's window, warm`,
        ours: ms(find.median),
        peer: peerOf(peerWindow, frame.size),
        ratio: find.median / peerWindow.median,
        budget: '≤ 1x peer (same window)',
        met: find.median <= peerWindow.median,
      },
    ];
  } finally {
    rmSync(screen.file, { force: true });
    rmSync(frame.file, { force: true });
  }
}

/** The peers, installed on first use; one that cannot be had is recorded, and its rows say so. */
async function startPeers(env: Env): Promise<Peers> {
  const peers: Peers = { failures: {} };
  try {
    peers.modules = installPeers();
  } catch (error) {
    const message = `npm install into the bench's cache folder failed: ${why(error)}`;
    peers.failures = { computerUse: message, agentDevice: message, tokens: message };
    return peers;
  }
  try {
    peers.tokens = tokenCounter();
  } catch (error) {
    peers.failures.tokens = why(error);
  }
  try {
    peers.computerUse = await computerUseMcp(env);
  } catch (error) {
    peers.failures.computerUse = why(error);
  }
  try {
    peers.agentDevice = await AgentDevice.start(env);
  } catch (error) {
    peers.failures.agentDevice = why(error);
  }
  return peers;
}

/** Runs `measure` on a desktop of its own, with a macpilot server and the processes it starts, then stops them. */
async function onDesktop<T>(
  options: Parameters<typeof startDesktop>[0],
  measure: (on: { env: Env; macpilot: Macpilot; processes: Processes }) => Promise<T>,
): Promise<T> {
  const desktop = await startDesktop(options);
  const env = desktop.env as Env;
  const processes = new Processes(env);
  const macpilot = await startMacpilot({
    ...env,
    MACPILOT_LOG_LEVEL: 'warn',
    MACPILOT_RATE_LIMITS: BENCH_LIMITS,
  });
  try {
    return await measure({ env, macpilot, processes });
  } finally {
    await macpilot.close();
    await processes.stopAll();
    await desktop.stop();
  }
}

/**
 * The desks people have, on a two-monitor desktop of their own (Xorg's dummy driver, scripts/desktop.ts): a
 * click at a point on the second monitor, and click_element in the background (the control's own action, the
 * pointer left alone), each beside xdotool's click on the same digits in the same turns.
 */
async function desks(): Promise<Row[]> {
  if (process.getuid?.() !== 0)
    throw new Error('the two-monitor desktop needs root (Xorg with the dummy driver)');
  return onDesktop({ monitors: 2 }, async ({ env, macpilot, processes }) => {
    const { pid } = processes.start('gnome-calculator');
    const window = await eventually('the calculator window', async () => {
      const listed = await macpilot.client.callTool({ name: 'list_windows', arguments: {} });
      const { windows } = listed.structuredContent as { windows: { id: string; pid: number }[] };
      return windows.find((w) => w.pid === pid);
    });
    // Onto the right monitor (its origin 1280,0), well inside it.
    await macpilot.ok('move_window', { window_id: window.id, x: 1500, y: 100 });
    const buttons = await eventually('the keypad on the right monitor', async () => {
      const found = await digitButtons(macpilot, pid);
      return found.every((b) => b.x >= 1280) ? found : undefined;
    });
    const xdotoolClick = (at: { x: number; y: number }) =>
      execFileSync('xdotool', ['mousemove', String(at.x), String(at.y), 'click', '1'], { env });
    const ourPoint = cycle(buttons);
    const ourRef = cycle(buttons);
    const peerPoint = cycle(buttons);
    const [point, background, xdotool] = (await timeTurns(
      15,
      [
        async () => {
          const { x, y } = ourPoint();
          await macpilot.ok('click', { x, y });
        },
        () => macpilot.ok('click_element', { ref: ourRef().ref, background: true }),
        async () => xdotoolClick(peerPoint()),
      ],
      { idleMs: APP_IDLE_MS },
    )) as [Summary, Summary, Summary];
    const peer = `${ms(xdotool.median)} (xdotool mousemove + click, one process, on the second monitor)`;
    return [
      {
        what: "click {x, y} on gnome-calculator's digits on the second monitor (origin 1280,0), with its answer (tool call)",
        ours: ms(point.median),
        peer,
        ratio: point.median / xdotool.median,
        budget: '≤ 0.6x peer',
        met: point.median <= 0.6 * xdotool.median,
      },
      {
        what: 'click_element with background: true on the same digits (the pointer and the focus untouched), with its answer',
        ours: ms(background.median),
        peer,
        ratio: background.median / xdotool.median,
        budget: '≤ 100 ms',
        met: background.median <= 100,
      },
    ];
  });
}

type Session = 'x11' | 'sway' | 'gnome';

/** What a person waits for on each kind of session: a click at a point, typing by ref, a screenshot. */
interface SessionFigures {
  click: Summary;
  type: Summary;
  shot: Summary;
  /** The one-process tools of the session, where it has them, doing the same. */
  peers: Partial<Record<'click' | 'type' | 'shot', { summary: Summary; what: string }>>;
}

const SESSION_TEXT = 'The quick brown fox jumps over the lazy dog; 0123456789. '.repeat(2).slice(0, 100);

/**
 * On a desktop of its own (X11, headless sway or headless GNOME Shell): click {x, y} on gnome-calculator's
 * digits, type_text of 100 characters into a zenity field by ref, and take_screenshot of the display, each a tool
 * call with its answer, in turns with the session's one-process tools where it has them (xdotool on X11;
 * swaymsg's seat cursor commands, wtype and grim on sway; GNOME has none: its figures stand beside X11's).
 */
async function sessionCalls(session: Session): Promise<SessionFigures> {
  return onDesktop({ session }, async ({ env, macpilot, processes }) => {
    const zenity = processes.start('zenity', ['--entry', '--title', 'bench', '--text', 'Typed here']);
    const field = await eventually('the zenity field', async () => {
      const out = await macpilot.call('find_elements', { app: String(zenity.pid), role: 'textbox' });
      return out.isError ? undefined : /\[ref=(e\d+)\]/.exec(out.text)?.[1];
    });
    const { pid } = processes.start('gnome-calculator');
    const buttons = await digitButtons(macpilot, pid);
    const ourPoint = cycle(buttons);
    const peerPoint = cycle(buttons);
    const run = (command: string, args: string[]) => async () => {
      execFileSync(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
    };
    const peerTasks: Partial<Record<'click' | 'type' | 'shot', { task: () => Promise<void>; what: string }>> =
      session === 'sway'
        ? {
            click: {
              task: async () => {
                const { x, y } = peerPoint();
                await run('swaymsg', [
                  `seat - cursor set ${x} ${y}; seat - cursor press button1; seat - cursor release button1`,
                ])();
              },
              what: 'swaymsg seat cursor set + press + release, one process, no answer',
            },
            type: {
              task: run('wtype', ['--', SESSION_TEXT]),
              what: 'wtype typing the same text, one process',
            },
            shot: { task: run('grim', ['-t', 'png', '-']), what: 'grim -t png to stdout, one process' },
          }
        : session === 'x11'
          ? {
              click: {
                task: async () => {
                  const { x, y } = peerPoint();
                  await run('xdotool', ['mousemove', String(x), String(y), 'click', '1'])();
                },
                what: 'xdotool mousemove + click, one process',
              },
              type: {
                task: run('xdotool', ['type', '--delay', '0', '--', SESSION_TEXT]),
                what: 'xdotool type --delay 0, one process',
              },
            }
          : {};
    const ours = [
      async () => {
        const { x, y } = ourPoint();
        await macpilot.ok('click', { x, y });
      },
      () => macpilot.ok('type_text', { ref: field, text: SESSION_TEXT }),
      () => macpilot.ok('take_screenshot', {}),
    ];
    const kinds = ['click', 'type', 'shot'] as const;
    const peerKinds = kinds.filter((kind) => peerTasks[kind] !== undefined);
    const summaries = await timeTurns(
      15,
      [...ours, ...peerKinds.map((kind) => peerTasks[kind]?.task ?? (async () => {}))],
      { idleMs: APP_IDLE_MS },
    );
    const [click, type, shot] = summaries as [Summary, Summary, Summary];
    const peers: SessionFigures['peers'] = {};
    peerKinds.forEach((kind, i) => {
      peers[kind] = { summary: summaries[3 + i] as Summary, what: peerTasks[kind]?.what ?? '' };
    });
    return { click, type, shot, peers };
  });
}

const SESSION_CALLS = {
  click: "click {x, y} on gnome-calculator's digits, with its what-changed answer (tool call)",
  type: `type_text of ${SESSION_TEXT.length} characters into a zenity field by ref, with its answer (tool call)`,
  shot: 'take_screenshot tool call, 1280x800 PNG',
} as const;

/**
 * The same calls on X11, on a headless sway and on a headless GNOME Shell (mutter 43), each beside the session's
 * one-process tools in the same turns; GNOME, which has none, beside X11's figures of this run.
 */
async function sessions(): Promise<Row[]> {
  const x11 = await sessionCalls('x11');
  const sway = await sessionCalls('sway');
  const gnome = await sessionCalls('gnome');
  const rows: Row[] = [];
  for (const [name, figures] of [
    ['X11', x11],
    ['sway', sway],
  ] as const) {
    for (const kind of ['click', 'type', 'shot'] as const) {
      const peer = figures.peers[kind];
      if (!peer) continue;
      const ratio = figures[kind].median / peer.summary.median;
      // A screenshot is a like-for-like capture; the peers' clicks and keys hand the input over and exit, where
      // ours answer once the app has settled.
      const budgeted = kind === 'shot';
      rows.push({
        what: `${name}: ${SESSION_CALLS[kind]}`,
        ours: ms(figures[kind].median),
        peer: `${ms(peer.summary.median)} (${peer.what})`,
        ratio,
        budget: budgeted ? '≤ 1x peer' : 'informative',
        met: budgeted ? ratio <= 1 : true,
      });
    }
  }
  for (const kind of ['click', 'type', 'shot'] as const) {
    rows.push({
      what: `GNOME: ${SESSION_CALLS[kind]}`,
      ours: ms(gnome[kind].median),
      peer: `${ms(x11[kind].median)} (macpilot's same call on the X11 desktop, this run: GNOME has no one-process tool)`,
      ratio: gnome[kind].median / x11[kind].median,
      budget: 'informative',
      met: true,
    });
  }
  return rows;
}

/**
 * gnome-calculator, opened by agent-device when it runs (it reads only an app it opened itself) and used by both
 * sides; else launched by macpilot. Its pid is tracked, so that it is stopped with the run.
 */
async function openCalculator(macpilot: Macpilot, helper: HelperClient, processes: Processes, peers: Peers) {
  const pids = async () =>
    new Set(
      (await helper.call('apps.list', {})).apps
        .filter((a) => a.name === 'gnome-calculator')
        .map((a) => a.pid),
    );
  const before = await pids();
  if (peers.agentDevice) {
    try {
      await peers.agentDevice.call('open', { platform: 'linux', app: 'gnome-calculator' });
      const pid = await eventually('the calculator agent-device opened', async () =>
        [...(await pids())].find((p) => !before.has(p)),
      );
      processes.track(pid);
      return { calculatorPid: pid };
    } catch (error) {
      peers.failures.agentDevice = `agent-device could not open gnome-calculator: ${why(error)}`;
      await peers.agentDevice.close();
      peers.agentDevice = undefined;
    }
  }
  const launched = await macpilot.ok('launch_app', { name: 'Calculator' });
  const pid = Number(/pid (\d+)/.exec(launched)?.[1]);
  processes.track(pid);
  return { calculatorPid: pid };
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
    throw new Error(
      `the bench needs: ${missing.join(', ')}; install them with ` +
        `sudo apt-get install -y --no-install-recommends ${missing.join(' ')} (or scripts/install.sh)`,
    );
  }
  const desktop = await startDesktop();
  const env = desktop.env as Env;
  const processes = new Processes(env);
  const helper = new HelperClient({ helper: { ...helperCommand(), env }, log: createLogger('warn') });
  // The bench calls far faster than an agent does: limits high enough not to refuse it (they still run).
  const macpilot = await startMacpilot({
    ...env,
    MACPILOT_LOG_LEVEL: 'warn',
    MACPILOT_RATE_LIMITS: BENCH_LIMITS,
  });
  // `--only ocr,screenshots` runs just those sections (and starts the peers only when one of them needs them).
  const only = process.argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const wanted = (name: string) => only === undefined || only.includes(name);
  const withPeers = ['snapshot_ui', 'clicks', 'screenshots', 'long lists'].some(wanted);
  const peers = withPeers ? await startPeers(env) : { failures: {} };
  try {
    processes.start('gtk3-demo');
    processes.start('mousepad');
    await eventually('gtk3-demo and mousepad', async () => {
      const { apps } = await helper.call('apps.list', {});
      return apps.some((a) => a.name === 'gtk3-demo') && apps.some((a) => a.name === 'mousepad')
        ? true
        : undefined;
    });
    const apps = withPeers ? await openCalculator(macpilot, helper, processes, peers) : { calculatorPid: 0 };
    const rows: Row[] = [];
    // A section that fails still gets its row, marked not met: a budget is never dropped silently.
    const section = async (name: string, run: () => Promise<Row | Row[]>) => {
      if (!wanted(name)) return;
      process.stderr.write(`bench: ${name}...\n`);
      try {
        rows.push(...[await run()].flat());
      } catch (error) {
        rows.push({
          what: name,
          ours: `failed: ${why(error)}`,
          peer: '',
          ratio: Number.NaN,
          budget: '',
          met: false,
        });
      }
    };
    await section('round trip', () => roundTrip(env, macpilot));
    await section('cold start', () => coldStart(env));
    await section('helper snapshots', () => helperSnapshots(env, helper, ['gtk3-demo', 'mousepad']));
    await section('snapshot_ui', () => toolSnapshots(macpilot, apps, peers));
    await section('clicks', () => clicks(env, macpilot, helper, apps, peers));
    await section('desks', () => desks());
    await section('sessions', () => sessions());
    await section('screenshots', () => screenshots(env, macpilot, helper, peers));
    await section('ocr', () => ocr(env, macpilot, helper));
    await section('long lists', () => longLists(env, macpilot, processes, peers));
    const markdown = `Measured ${machine()}.\n\n${table(rows)}`;
    process.stdout.write(`${markdown}\n`);
    // A partial run does not replace the recorded table.
    if (process.argv.includes('--record') && only === undefined) record(markdown);
  } finally {
    await peers.computerUse?.close();
    await peers.agentDevice?.close();
    await macpilot.close();
    await helper.close();
    await processes.stopAll();
    await desktop.stop();
  }
}

await main();
