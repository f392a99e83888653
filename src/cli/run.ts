/**
 * A tool command, run: one ToolSession on the same engine and policy as the MCP server (mode, app lists, rate
 * limits, consent asked at the terminal, audit), the command's tool calls, and their answer printed as text
 * (refs named by their paths) or JSON. Exit code 0, 1 when the call failed, 2 when the command line was wrong.
 */
import { type Config, loadConfig } from '../config.js';
import { snapshotJson } from '../engine/render/json.js';
import { wordsText } from '../engine/render/line.js';
import { renderText } from '../engine/render/text.js';
import { PERSON, personWords } from '../engine/render/vocabulary.js';
import { MacpilotError } from '../errors.js';
import { DATA_FENCE } from '../untrusted.js';
import { shellQuote } from '../text.js';
import { createRuntime } from '../runtime.js';
import type { StartedHelper } from '../helper-client/spawn.js';
import { TOOLSET_NAMES } from '../toolsets.js';
import {
  availableTools,
  enabledTools,
  notOnThisPlatform,
  type ToolAnswer,
  ToolSession,
} from '../tools/call.js';
import { COMMANDS, type Format } from './commands.js';
import { withPaths } from './paths-text.js';
import { Spinner, terminalHuman } from './terminal.js';
import {
  argumentProblems,
  type Call,
  inPersonWords,
  type Invocation,
  TOOL_COMMANDS,
} from './tool-commands.js';
import { USAGE_EXIT, UsageError } from './usage-error.js';

export interface RunOptions {
  /** The helper, started from the same settings while this module loaded. */
  started?: StartedHelper;
}

export async function runToolCommand(
  name: string,
  invocation: Invocation,
  format: Format,
  { started }: RunOptions = {},
): Promise<number> {
  const command = TOOL_COMMANDS[name];
  if (!command) throw new Error(`no tool command ${name}`);
  if (invocation.values.output === '-' && process.stdout.isTTY) {
    throw new UsageError(
      `-o - writes the image's bytes to stdout, which is a terminal here: redirect them (macpilot ${name} -o - > shot.png) or pipe them`,
    );
  }
  // Every toolset: toolsets choose what an agent is shown, and the person at the terminal asked for this one.
  // The settings are read as the server reads them first, so a wrong toolset in the file is still reported.
  const config = personLimits({ ...loadConfig(), toolsets: [...TOOLSET_NAMES] });
  if (invocation.values.output === '-' && format === 'json') {
    throw new UsageError(
      config.mode === 'read-only'
        ? `-o - writes the image's bytes to stdout, where --format json would write too: leave out --format json (read-only mode writes no file)`
        : `-o - writes the image's bytes to stdout, where --format json would write too: save it to a file (macpilot ${name} -o shot.png --format json), or leave out --format json`,
    );
  }
  const runtime = createRuntime(config, undefined, started);
  const spinner = new Spinner();
  const session = new ToolSession(runtime, {
    human: terminalHuman({ yes: invocation.values.yes === true, spinner }),
    who: () => `macpilot ${name} (command line)`,
    clientLog: { send: () => {} },
    listed: enabledTools(config, runtime.services),
    available: availableTools(config, runtime.services),
  });
  const interrupted = new AbortController();
  const interrupt = () => interrupted.abort();
  process.once('SIGINT', interrupt);

  const call: Call = async (toolName, args) => {
    const tool = session.tool(toolName);
    if (!tool) {
      const text = `${notOnThisPlatform(toolName)}, so \`macpilot ${name}\` cannot run here.`;
      return { result: { content: [{ type: 'text', text }], isError: true } };
    }
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) throw new UsageError(argumentProblems(name, parsed.error, args));
    spinner.start(`macpilot ${name}`);
    try {
      return await session.answer(tool, parsed.data, { signal: interrupted.signal });
    } finally {
      spinner.stop();
    }
  };

  try {
    const answered = await command(invocation, call);
    // The engine's result in a person's words; a tool that answered in its own words, or an error, with paths.
    const { answer, failure } = answered;
    const text = withoutFence(
      answer
        ? renderText(answer, personVocabulary(config))
        : withApp(
            inPersonWords(
              withPaths(
                failure ? failureText(name, invocation.positionals, failure) : textOf(answered),
                runtime.engine.kernel.refs,
              ),
            ),
            appOf(name, invocation),
          ),
    );
    const failed = answered.result.isError === true;
    const image = answered.result.content.find((part) => part.type === 'image');
    if (failed) process.stderr.write(`macpilot ${name}: ${text}\n`);
    else if (image && invocation.values.output === '-') {
      // `screenshot -o -`: the image alone on stdout, what it shows on stderr.
      process.stdout.write(Buffer.from(image.data, 'base64'));
      process.stderr.write(`${text}\n`);
    } else
      process.stdout.write(
        format === 'json' ? `${JSON.stringify(jsonOf(answered, text), null, 2)}\n` : `${text}\n`,
      );
    // Ctrl-C cancels the call in flight; the shell's convention for a command it interrupted is 128 + SIGINT.
    const code = interrupted.signal.aborted
      ? 130
      : failure && USAGE_KINDS.has(failure.kind)
        ? USAGE_EXIT
        : failed
          ? 1
          : 0;
    return code;
  } finally {
    process.removeListener('SIGINT', interrupt);
    spinner.stop();
    await Promise.all([runtime.helper.close().catch(() => {}), runtime.engine.close().catch(() => {})]);
  }
}

/** The app the command line named (--app, or the first argument of `tree`, `menu`, `windows`, `launch`). */
function appOf(command: string, { positionals, values }: Invocation): string | undefined {
  if (typeof values.app === 'string') return values.app;
  const takesApp = /^[<[]app[>\]]/.test(COMMANDS.find((spec) => spec.name === command)?.args ?? '');
  return takesApp ? positionals[0] : undefined;
}

/** Commands the advice names with an `<app>` to fill in name the app the person gave: ready to run. */
const withApp = (text: string, app: string | undefined): string =>
  app === undefined
    ? text
    : text.replace(/`macpilot [^`]*`/g, (command) => command.replaceAll('<app>', shellQuote(app)));

/** Failures of what was typed on the command line: exit code 2, as for any other usage error. */
const USAGE_KINDS = new Set([
  'invalid_arguments',
  'malformed_path',
  'malformed_menu_path',
  'unknown_key',
  'unknown_modifier',
  'no_key',
  'unknown_role',
  'value_not_taken',
]);

/**
 * The note that fences app text from instructions is for a model; the person at the terminal reads the text as
 * it is, so the note goes.
 */
const withoutFence = (text: string): string =>
  text
    .replaceAll(`(${DATA_FENCE}; `, '(')
    .replaceAll(`\n(${DATA_FENCE})`, '')
    .replaceAll(` (${DATA_FENCE})`, '');

/** Commands that act, and read with other words: what a mode that refuses the action still lets a person run. */
const READING_FORMS: Record<string, string> = {
  menu: '`macpilot menu <app> --list` lists the menus',
  clipboard: '`macpilot clipboard` prints the clipboard',
};

/** A failure as the person who ran `command` reads it: where the tool's advice does not fit the command, the command's. */
function failureText(command: string, positionals: readonly string[], failure: MacpilotError): string {
  // The tool says "call it without file_path"; the command writes a file unless told to write to stdout.
  if (command === 'screenshot' && failure.kind === 'writes_in_read_only_mode') {
    return new MacpilotError({
      what: 'Writing a screenshot file is not available in read-only mode',
      // The mode guard's why is "<the arguments> write..., and <where the mode was set>"; the second half holds.
      why: `it writes the image to a file unless given -o -, and ${failure.why.replace(/^[^,]*, and /, '')}`,
      next: '`macpilot screenshot -o -` writes the image to stdout instead, which read-only mode allows',
      kind: 'writes_in_read_only_mode',
    }).renderForPerson();
  }
  // The mode names the tool the command called; the person ran the command, and may run its reading form.
  if (failure.kind === 'not_in_mode') {
    const word = COMMANDS.find((spec) => spec.name === command)?.words?.includes(positionals[0] ?? '');
    const shown = word ? `${command} ${positionals[0]}` : command;
    const what = failure.what.replace(/^\S+ is not available/, `\`macpilot ${shown}\` is not available`);
    const reading = READING_FORMS[command];
    const next = reading ? `${failure.next}; ${reading}, which this mode allows` : failure.next;
    return new MacpilotError({ ...failure, what, next }).renderForPerson();
  }
  return failure.renderForPerson();
}

/**
 * One command is one person's request, run in a process of its own: the counts per second and per minute, which
 * hold back an agent's bursts, would only refuse the command's own lookups (`type --into` reads the field before
 * typing), so they do not apply here; calls at once, scripts per minute, action_seconds and the rest of the
 * policy do.
 */
function personLimits(config: Config): Config {
  const unlimited = Number.MAX_SAFE_INTEGER;
  const rateLimits = {
    ...config.rateLimits,
    callsPerSecond: unlimited,
    callsPerMinute: unlimited,
    writesPerSecond: unlimited,
  };
  return { ...config, rateLimits };
}

const textOf = (answered: ToolAnswer): string =>
  answered.result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

/** The tool's structured result; a tree's walked elements; else the text, as {"text": ...}. Paths, no refs. */
function jsonOf(answered: ToolAnswer, text: string): unknown {
  const structured = answered.result.structuredContent;
  // An action's `done` names its element by ref for an agent; a person's JSON names it by path.
  if (structured && answered.answer?.kind === 'action')
    return withoutRefs({ ...structured, done: wordsText(answered.answer.done, PERSON) });
  if (structured) return withoutRefs(structured);
  if (answered.answer?.kind === 'snapshot') return withoutRefs(snapshotJson(answered.answer));
  return { text };
}

/**
 * A ref names an element within one server session, which ends with the command; each element in the JSON
 * also has its path, which the next command accepts, so the ref goes.
 */
function withoutRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRefs);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([key]) => !(key === 'ref' && 'path' in value));
  return Object.fromEntries(entries.map(([key, inner]) => [key, withoutRefs(inner)]));
}

/** The person's words, naming the settings behind what the app lists hide. */
function personVocabulary(config: Config) {
  return personWords(inPersonWords(config.origins.listDeniedApps.change('on')));
}
