/**
 * What each tool command does: the MCP tool calls it makes, with the arguments its command line gives. Refs
 * live only inside one process: commands name elements by path, and one that needs to know an element first
 * (set, for the kind of value it holds) asks get_element for it, in the same session.
 */
import { resolve } from 'node:path';
import type { z } from 'zod';
import { formatPath, parsePath } from '../engine/kernel/paths.js';
import { SNAPSHOT_DEFAULTS } from '../engine/kernel/tree.js';
import { MacpilotError } from '../errors.js';
import { parseMenuPath } from '../menu-path.js';
import { nearestNames } from '../text.js';
import type { ToolAnswer } from '../tools/call.js';
import { COMMANDS } from './commands.js';
import { UsageError } from './usage-error.js';

export interface Invocation {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** A tool call by name; arguments its input schema refuses are a usage error. */
export type Call = (tool: string, args: Record<string, unknown>) => Promise<ToolAnswer>;

export type ToolCommand = (invocation: Invocation, call: Call) => Promise<ToolAnswer>;

const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * An app as the commands take it: its name or pid, or the app a printed path begins with (`app(1118)`,
 * `app("zenity")`, as `tree` prints an application's line); a path to an element in it is no app.
 */
export function appGiven(value: string | boolean | undefined): string | undefined {
  const given = text(value);
  if (given === undefined || !given.trimStart().startsWith('app(')) return given;
  const path = parsePath(checkedPath(given));
  if (path.segments.length > 0) {
    throw new UsageError(
      `${given} is the path of an element in an app; give the app alone (${formatPath({ ...path, segments: [] })}, its name or its pid), or read the element with \`macpilot get\``,
    );
  }
  return path.pid === undefined ? path.app : String(path.pid);
}

function integer(value: string | boolean | undefined, option: string): number | undefined {
  const given = text(value);
  if (given === undefined) return undefined;
  if (!/^\d+$/.test(given)) {
    const why = /^-\d+$/.test(given) ? 'not a negative one' : `not "${given}"`;
    throw new UsageError(`--${option} takes a whole number, ${why}`);
  }
  return Number(given);
}

/** A path as typed (by `parse`): one the grammar refuses is a usage error, before any app is asked. */
function checkedPath(path: string, parse: (path: string) => unknown = parsePath): string {
  try {
    parse(path);
    return path;
  } catch (error) {
    throw new UsageError(
      error instanceof MacpilotError ? inPersonWords(error.renderForPerson()) : String(error),
    );
  }
}

/**
 * The element path in what a command printed with --format json: an element's own `path`, the element a wait
 * saw (`element`) or an action targeted (`target`), or the path of the only match of a search (several are
 * refused with their paths, as an ambiguous path is).
 */
export function pathInJson(json: string): string {
  const example = "pipe in another command's answer, as in: macpilot find OK --format json | macpilot get -";
  if (json.trim() === '')
    throw new UsageError(`get - reads an element's JSON on stdin, and stdin was empty: ${example}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new UsageError(
      `get - reads an element's JSON on stdin, and stdin is not JSON (it begins ${JSON.stringify(json.trim().slice(0, 20))}): give that command --format json`,
    );
  }
  const { path, element, target, matches, items } = (parsed ?? {}) as {
    path?: unknown;
    element?: { path?: unknown } | null;
    target?: { path?: unknown } | null;
    matches?: ({ path?: unknown } | null)[];
    /** A menu's items (`menu <app> <menu> --list`). */
    items?: ({ path?: unknown } | null)[];
  };
  const named = [path, element?.path, target?.path].find((p) => typeof p === 'string');
  if (typeof named === 'string') return named;
  const list = Array.isArray(matches) ? matches : items;
  const paths = (Array.isArray(list) ? list : []).map((m) => m?.path).filter((p) => typeof p === 'string');
  if (paths.length === 1) return paths[0] as string;
  throw new UsageError(
    paths.length === 0
      ? Array.isArray(list)
        ? 'the JSON on stdin lists no element (0 matches): get - needs a list with one element'
        : `the JSON on stdin names no element (it has no path, element, target, matches or items): ${example}`
      : `the JSON on stdin has ${paths.length} elements; get takes one of their paths: ${paths.join('; ')}`,
  );
}

/** More than any command takes from stdin (set_clipboard's 10,000,000 characters, in UTF-8's widest). */
const STDIN_MAX_BYTES = 40_000_000;

/** What `-` reads from stdin; `atTerminal` says why a terminal there is a usage error. */
async function standardInput(atTerminal: string): Promise<string> {
  // At a terminal, stdin would wait for a person to type (and Ctrl-D), which no one means to do.
  if (process.stdin.isTTY) throw new UsageError(atTerminal);
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    bytes += (chunk as Buffer).length;
    if (bytes > STDIN_MAX_BYTES) {
      throw new UsageError(
        `stdin holds more than ${STDIN_MAX_BYTES / 1_000_000} MB, more than any command takes`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new UsageError('stdin is not UTF-8 text: convert it first (iconv -t UTF-8)');
  }
}

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const POINT = new RegExp(`^(${NUMBER}),(${NUMBER})$`);
const REGION = new RegExp(`^(${NUMBER}),(${NUMBER}),(${NUMBER}),(${NUMBER})$`);

/** The element at a path, as get_element answers it (its ref is good for this process's later calls). */
async function element(
  call: Call,
  path: string,
): Promise<{ answer: ToolAnswer; ref?: string; value?: unknown; range?: Range }> {
  const answer = await call('get_element', { path: checkedPath(path) });
  const found = answer.result.structuredContent as
    { ref?: string; value?: unknown; range?: Range } | undefined;
  return { answer, ref: found?.ref, value: found?.value, range: found?.range };
}

interface Range {
  min: number;
  max: number;
}

/** `set`'s value as the element holds it: a toggle's true or false, a slider's number, else the text. */
function valueLike(current: unknown, given: string, range?: Range): string | number | boolean {
  if (typeof current === 'boolean') {
    if (given === 'true' || given === 'false') return given === 'true';
    throw new UsageError(`the element is a toggle: its value is true or false, not "${given}"`);
  }
  if (typeof current === 'number') {
    // Any number a person writes: 42, -3.5, .5, 1e9; not JavaScript's other forms (0x10, 0b1).
    const decimal = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(given);
    const number = decimal ? Number(given) : Number.NaN;
    const within = range ? `from ${range.min} to ${range.max}` : 'in its range';
    if (!Number.isFinite(number))
      throw new UsageError(`the element holds a number (now ${current}), not "${given}"; give one ${within}`);
    if (range && (number < range.min || number > range.max))
      throw new UsageError(
        `${given} is out of the element's range: give a number ${within} (it holds ${current} now)`,
      );
    return number;
  }
  return given;
}

function screenshotFile(output: string | undefined): string {
  if (output?.trim() === '')
    throw new UsageError('-o takes a file name, e.g. -o shot.png (or -o - for stdout)');
  if (output !== undefined) return resolve(output);
  const stamp = new Date().toISOString().replace(/\..*$/, '').replaceAll(':', '').replace('T', '-');
  return resolve(`macpilot-screenshot-${stamp}.png`);
}

/** What a person does instead of the tools no command calls, as failures' advice names them. */
const WITHOUT_COMMAND: Readonly<Record<string, string>> = {
  perform_action: '`macpilot click`',
  focus_window: 'a click on its window',
  get_menu_item_state: '`macpilot menu <app> --list`',
  list_menu_items: '`macpilot menu <app> --list`',
  check_permissions: '`macpilot doctor`',
};

/** How a tool's argument is given on the command line, by the tool argument's name; `wait` has its own. */
const GIVEN_AS: Readonly<Record<string, string>> = {
  text: 'the text',
  key: 'the key',
  path: 'the path',
  value: 'the value',
  condition: 'the condition',
  app: '--app',
  role: '--role',
  name: '--name',
  depth: '--depth',
  repeat: '--repeat',
  button: '--button',
  window: '--window',
  region: '--region',
  file_path: '--output',
  black_out_hidden: '--black-out',
  display: '--display',
  include_hidden: '--all',
  include_minimized: '--minimized',
  timeout_ms: '--timeout',
  max_results: '--max',
  max_chars: '--max-chars',
  idle_ms: '--idle',
};
/** Where a command gives an argument its own way: wait's text is an option, launch's app name its argument. */
const COMMAND_GIVEN_AS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  wait: { text: '--text' },
  launch: { name: 'the app' },
  // The app is these commands' first argument.
  tree: { app: 'the app' },
  windows: { app: 'the app' },
  menu: { app: 'the app' },
};

/**
 * A failure's sentence (an agent's words: tools and their arguments) in a person's: the tools the commands call
 * as those commands, and the arguments they have flags for as the flags.
 */
export function inPersonWords(text: string): string {
  const commandOf = new Map<string, string>();
  for (const command of COMMANDS) {
    for (const tool of command.tools ?? []) if (!commandOf.has(tool)) commandOf.set(tool, command.name);
  }
  // Each command is a process of its own: a setting changed applies to the next one, with nothing to restart.
  let out = text
    .replace(/,? (?:then|and) restart(?:ing)? macpilot/g, '')
    .replace(/\brestart macpilot with --/g, 'run the command again with --')
    // The reader is the human the advice would send an agent to.
    .replace(/only a human can allow it: /g, '')
    .replace(/ where macpilot is started \(the MCP client's server entry or your shell\)/g, ' in your shell')
    .replace(/\bthe person's app lists\b/g, 'your app lists')
    .replace(/\ban app hidden from you\b/g, 'an app your app lists hide from agents')
    .replace(/\bask the person for what you need; /g, '')
    .replace(/\bmacpilot's console, the person's own\b/g, "macpilot's console, your own")
    .replace(
      / hidden; only the person can change that\)/g,
      ' hidden by your app lists: `macpilot apps` says by which setting)',
    )
    .replace(/; only the person can change that\)/g, ': `macpilot apps` says by which setting)')
    .replace(
      /\bonly the person can change that\b/g,
      'you can change that in your app lists (`macpilot apps` says by which setting)',
    );
  for (const [tool, instead] of Object.entries(WITHOUT_COMMAND)) {
    out = out.replace(new RegExp(`\\b${tool}\\b`, 'g'), instead);
  }
  for (const [argument, given] of Object.entries(GIVEN_AS)) {
    if (!argument.includes('_') || !given.startsWith('--')) continue;
    out = out.replace(new RegExp(`\\b${argument}(?:: true|=\\S+)?`, 'g'), given);
  }
  return (
    out
      .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (word) =>
        commandOf.has(word) && commandOf.get(word) !== word ? `\`macpilot ${commandOf.get(word)}\`` : word,
      )
      // An agent calls tools; a person runs commands, and reads no aside meant for someone else.
      .replace(/\bcall `macpilot /g, 'run `macpilot ')
      .replace(/ \(a person can run `macpilot doctor`\)/g, '')
  );
}

/** Why the command line's values do not fit the tool, each in the command's words: "the text is empty". */
export function argumentProblems(
  command: string,
  error: z.ZodError,
  values: Readonly<Record<string, unknown>> = {},
): string {
  return (
    error.issues
      .map((issue) => {
        const argument = String(issue.path[0] ?? '');
        // A part of a value (--region's width) is named with it.
        const part = issue.path.slice(1).join('.');
        const given = COMMAND_GIVEN_AS[command]?.[argument] ?? GIVEN_AS[argument] ?? argument;
        const named = part && given ? `${given} ${part}` : given;
        if (command === 'find' && argument === 'text' && issue.code === 'too_small') {
          return "find: the text is empty; give some of the text, or '' with --role for every element of a role";
        }
        if (command === 'type' && argument === 'text' && issue.code === 'too_small') {
          return "type: the text is empty; give the text to type (to empty a field: macpilot set <path> '')";
        }
        if (named !== '') return `${command}: ${named} ${problem(issue, values[argument])}`;
        // A rule over several arguments (at most one of region, display, app / window): named by their flags.
        return `${command}: ${problem(issue).replace(/\b[a-z_]+\b/g, (word) => (GIVEN_AS[word]?.startsWith('--') ? (GIVEN_AS[word] as string) : word))}`;
      })
      // Several values given by one flag (--region's width and height) can fail alike: say it once.
      .filter((line, i, lines) => lines.indexOf(line) === i)
      .join('\n')
  );
}

function problem(issue: z.core.$ZodIssue, input?: unknown): string {
  if (issue.code === 'too_small') {
    if (issue.origin === 'string')
      return issue.minimum === 1 ? 'is empty' : `needs at least ${issue.minimum} characters`;
    return issue.inclusive === false
      ? `must be more than ${issue.minimum}`
      : `must be at least ${issue.minimum}`;
  }
  if (issue.code === 'too_big') {
    return issue.origin === 'string'
      ? `is longer than ${issue.maximum} characters`
      : `must be at most ${issue.maximum}`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is missing';
  if (issue.code === 'invalid_value') {
    const values = issue.values.map(String);
    const near = typeof input === 'string' ? nearestNames(input, values) : [];
    return `must be one of ${values.join(', ')}${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
  }
  return issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
}

export const TOOL_COMMANDS: Readonly<Record<string, ToolCommand>> = {
  apps: (_input, call) => call('list_apps', {}),

  launch: ({ positionals: [app] }, call) => call('launch_app', { name: app }),

  displays: (_input, call) => call('list_displays', {}),

  windows: ({ positionals: [app], values }, call) =>
    call('list_windows', { app: appGiven(app), include_minimized: values.minimized === true || undefined }),

  tree: async ({ positionals: [app], values }, call) => {
    // --depth counts the levels a person sees, as snapshot_ui's depth does.
    const levels = integer(values.depth, 'depth');
    const answered = await call('snapshot_ui', {
      app: appGiven(app),
      depth: levels,
      ...(values.all === true ? { include_hidden: true, max_nodes: SNAPSHOT_DEFAULTS.maxNodesLimit } : {}),
    });
    if (answered.answer?.kind === 'snapshot') {
      const { render } = answered.answer;
      // The size cap keeps an agent's context small; a person who asked for everything reads it all.
      if (values.all === true) render.maxChars = Number.MAX_SAFE_INTEGER;
    }
    return answered;
  },

  find: ({ positionals: [query], values }, call) =>
    call('find_elements', {
      // '' with --role: every element of the role (`find '' --role checkbox`).
      text: query === '' && values.role !== undefined ? undefined : query,
      app: appGiven(values.app),
      role: text(values.role),
      include_hidden: values.all === true || undefined,
      max_results: integer(values.max, 'max'),
    }),

  get: async ({ positionals: [path = ''] }, call) => {
    const given =
      path === '-'
        ? pathInJson(
            await standardInput(
              "get - reads an element's JSON from another command through a pipe, and stdin is a terminal: pipe it in, as in: macpilot find OK --format json | macpilot get -",
            ),
          )
        : path;
    return call('get_element', { path: checkedPath(given) });
  },

  click: ({ positionals: [where = ''], values }, call) => {
    const button = text(values.button);
    const count = values.double === true ? 2 : undefined;
    const point = POINT.exec(where);
    if (point) return call('click', { x: Number(point[1]), y: Number(point[2]), button, count });
    // Digits first: a point mistyped ("10,10,5", "10, 20"), not a path.
    if (/^\s*-?\d/.test(where)) {
      throw new UsageError(`a point is x,y in screen points, e.g. 640,400 (no spaces), not "${where}"`);
    }
    return call('click_element', { path: checkedPath(where), button, count });
  },

  type: async ({ positionals: [typed], values }, call) => {
    const into = text(values.into);
    return call('type_text', {
      text: typed,
      path: into === undefined ? undefined : checkedPath(into),
      clear_first: values.clear === true || undefined,
      submit: values.submit === true || undefined,
    });
  },

  key: ({ positionals: [combo], values }, call) =>
    call('press_key', { key: combo, repeat: integer(values.repeat, 'repeat') }),

  set: async ({ positionals: [path = '', value = ''] }, call) => {
    if (path === '-') {
      throw new UsageError(
        'set takes its path as an argument (only get reads one from a pipe): give the path `macpilot find` prints after "at"',
      );
    }
    const target = await element(call, path);
    // A path that leads nowhere fails in set_value's words, as the write it was (the audit log records it).
    if (target.answer.result.isError) return call('set_value', { path, value });
    return call('set_value', { path, value: valueLike(target.value, value, target.range) });
  },

  menu: ({ positionals: [given, path], values }, call) => {
    const app = appGiven(given);
    if (values.list === true) {
      return call('list_menu_items', {
        app,
        path: path === undefined ? undefined : checkedPath(path, parseMenuPath),
      });
    }
    if (path === undefined)
      throw new UsageError('give the menu item\'s path, e.g. "File > Save As…", or --list');
    return call('click_menu_item', { app, path: checkedPath(path, parseMenuPath) });
  },

  screenshot: ({ values }, call) => {
    const given = ['app', 'window', 'region', 'display'].filter((name) => values[name] !== undefined);
    if (given.length > 1) {
      throw new UsageError(
        `screenshot takes one of --app, --window, --region and --display, not ${given.map((n) => `--${n}`).join(' and ')}`,
      );
    }
    const region = text(values.region);
    const area = region === undefined ? undefined : REGION.exec(region);
    if (region !== undefined && !area)
      throw new UsageError(`--region takes x,y,w,h in points, not "${region}"`);
    return call('take_screenshot', {
      app: appGiven(values.app),
      window: text(values.window),
      display: text(values.display),
      black_out_hidden: values['black-out'] === true || undefined,
      region: area && {
        x: Number(area[1]),
        y: Number(area[2]),
        width: Number(area[3]),
        height: Number(area[4]),
      },
      // "-": the image comes back in the answer, and the command writes it to stdout.
      file_path: values.output === '-' ? undefined : screenshotFile(text(values.output)),
    });
  },

  clipboard: async ({ positionals: [action = 'get', ...rest], values }, call) => {
    if (values['max-chars'] !== undefined && action !== 'get') {
      throw new UsageError(`--max-chars is for clipboard get, not clipboard ${action}`);
    }
    if (action === 'set' && rest.length === 1) {
      const text =
        rest[0] === '-'
          ? await standardInput(
              'clipboard set - copies the text piped to it, and stdin is a terminal: pipe it in, as in: macpilot clipboard set - < notes.txt',
            )
          : (rest[0] ?? '');
      if (text === '') {
        throw new UsageError(
          'set takes a text to copy, and this one is empty: `macpilot clipboard clear` empties the clipboard',
        );
      }
      return call('set_clipboard', { text });
    }
    if (rest.length === 0 && action === 'get') {
      const maxChars = integer(values['max-chars'], 'max-chars');
      return call('get_clipboard', maxChars === undefined ? {} : { max_chars: maxChars });
    }
    if (rest.length === 0 && action === 'clear') return call('clear_clipboard', {});
    throw new UsageError(
      'clipboard takes: get [--max-chars N], set <text> (or set - to read it from stdin), or clear',
    );
  },

  wait: ({ positionals: [condition, path], values }, call) => {
    if (values.idle !== undefined && condition !== 'app_idle') {
      throw new UsageError(
        `--idle is for app_idle, which waits for the app to be quiet; not for ${condition}`,
      );
    }
    return call('wait_for', {
      condition,
      path: path === undefined ? undefined : checkedPath(path),
      app: appGiven(values.app),
      text: text(values.text),
      role: text(values.role),
      name: text(values.name),
      timeout_ms: integer(values.timeout, 'timeout'),
      idle_ms: integer(values.idle, 'idle'),
    });
  },
};
