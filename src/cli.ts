#!/usr/bin/env node
/**
 * The `macpilot` command. It reads the command table (src/cli/commands.ts) and loads what a command needs only
 * when it runs, so `--version` and `--help` start about as fast as Node itself. Tool commands run in
 * src/cli/run.ts; the others are dispatched below.
 */
import { parseCommandLine } from './cli/arguments.js';
import { COMMANDS, commandNamed, commandSpec, type Format, FORMATS, optionsOf } from './cli/commands.js';
import { commandHelp, usage } from './cli/help.js';
import { USAGE_EXIT, UsageError } from './cli/usage-error.js';
import { MacpilotError } from './errors.js';
import type { StartedHelper } from './helper-client/spawn.js';
import { nearestNames } from './text.js';
import { VERSION } from './version.js';

/** The command being run, once the command line named one: what a usage error's hint points to. */
let running: string | undefined;

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const about = rest[0] === undefined ? undefined : commandNamed(rest[0]);
    if (rest[0] !== undefined && !about) {
      process.stderr.write(`macpilot help: ${unknownCommand(rest[0])}\n`);
      return USAGE_EXIT;
    }
    process.stdout.write(about ? commandHelp(about) : usage());
    return 0;
  }
  // No command, or only options: serve, as MCP clients configured before the commands existed start it.
  const named = first === undefined || first.startsWith('-') ? 'serve' : first;
  // `macpilot --format json apps`: a command after options (not an option's value, as in --toolsets apps).
  const takesValue = (arg: string | undefined) =>
    optionsOf(commandSpec('serve')).some((o) => o.value && arg === `--${o.name}`);
  const late =
    named === 'serve' && first !== 'serve'
      ? argv.findIndex((arg, i) => i > 0 && commandNamed(arg) && !takesValue(argv[i - 1]))
      : -1;
  if (late > 0) {
    const command = argv[late] as string;
    const options = argv.filter((_, i) => i !== late);
    throw new UsageError(`options go after the command: macpilot ${command} ${options.join(' ')}`);
  }
  // A reader that stops early (`macpilot doctor | head -1`) is not an error of the command's: the rest of its
  // output goes nowhere, and it ends with its own exit code (doctor's 1 when something is missing).
  if (named !== 'serve') {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.stdout.write = () => true;
    });
  }
  const command = commandNamed(named);
  if (!command) {
    process.stderr.write(`macpilot: ${unknownCommand(named)}\n(macpilot --help says what each does)\n`);
    return USAGE_EXIT;
  }
  running = command.name;
  // setup reads its own arguments and answers its own --help and usage errors (src/setup).
  if (command.name === 'setup') {
    const { setup } = await import('./setup/index.js');
    return setup(rest, undefined, commandHelp(command));
  }
  const { values, positionals } = parseImplicitServe(named !== first, () =>
    parseCommandLine(command, named === first ? rest : argv),
  );
  if (values.help) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  const [least, most] = command.positionals;
  if (positionals.length < least || positionals.length > most) {
    const count = least === most ? `${least}` : `${least} to ${most}`;
    throw new UsageError(
      `${command.name} takes ${count} argument${least === most && most === 1 ? '' : 's'}, not ${positionals.length}${command.args ? `: ${command.name} ${command.args}` : ''}`,
    );
  }
  const format = String(values.format ?? 'text').toLowerCase() as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format is text or json, not "${String(format)}"`);

  if (command.kind === 'tool') {
    // The helper starts while the rest of macpilot loads: each takes about half a second, and not on one core.
    const started = await startHelperEarly();
    const { runToolCommand } = await import('./cli/run.js');
    return runToolCommand(command.name, { positionals, values }, format, { started });
  }
  switch (command.name) {
    case 'serve': {
      const httpOnly = ['port', 'host'].filter((name) => values[name] !== undefined);
      if (httpOnly.length > 0 && !values.http) {
        throw new UsageError(
          `${httpOnly.map((name) => `--${name}`).join(' and ')} ${httpOnly.length > 1 ? 'are' : 'is'} for serving HTTP: add --http (without it, macpilot serves MCP on stdin/stdout)`,
        );
      }
      const { serve } = await import('./serve.js');
      await serve({
        toolsets: values.toolsets as string | undefined,
        http: values.http as boolean | undefined,
        port: values.port as string | undefined,
        host: values.host as string | undefined,
      });
      return -1;
    }
    case 'doctor':
      return doctor(format);
    case 'stop':
    case 'resume': {
      const { deskCommand } = await import('./cli/desk.js');
      return deskCommand(command.name, values.minutes as string | undefined);
    }
    case 'console': {
      const { runConsole } = await import('./console/command.js');
      return runConsole({ port: values.port as string | undefined, open: values['no-open'] !== true });
    }
    case 'install-helper': {
      const { installHelper } = await import('./platforms/index.js');
      process.stdout.write(`${await installHelper()}\n`);
      return 0;
    }
    case 'completion': {
      const { completion, isShell } = await import('./cli/completion.js');
      const shell = positionals[0] ?? '';
      if (!isShell(shell)) throw new UsageError(`completion is for bash, zsh or fish, not "${shell}"`);
      process.stdout.write(completion(shell));
      return 0;
    }
  }
  throw new Error(`the command ${command.name} has no dispatch`);
}

/** The helper, started from the settings; none when they are wrong (the command then says what is wrong). */
async function startHelperEarly(): Promise<StartedHelper | undefined> {
  const [{ loadConfig }, { helperFor }, spawning] = await Promise.all([
    import('./config.js'),
    import('./platforms/helper-command.js'),
    import('./helper-client/spawn.js'),
  ]);
  let config;
  try {
    config = loadConfig();
  } catch {
    return undefined;
  }
  return spawning.startHelperEarly(helperFor(config));
}

/** `macpilot doctor`: its lines, or with --format json {ok, lines}. */
async function doctor(format: Format): Promise<number> {
  const [{ doctor: check }, { loadConfig }] = await Promise.all([
    import('./doctor.js'),
    import('./config.js'),
  ]);
  if (format === 'text') return check(loadConfig(), (line) => process.stdout.write(`${line}\n`));
  const lines: string[] = [];
  const code = await check(loadConfig(), (line) => lines.push(line));
  process.stdout.write(`${JSON.stringify({ ok: code === 0, lines }, null, 2)}\n`);
  return code;
}

/**
 * Options with no command run serve: a mistake in them is said as one of the command line, which may have meant a
 * command, not as serve's alone.
 */
function parseImplicitServe<T>(implicit: boolean, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!implicit || !(error instanceof UsageError)) throw error;
    running = undefined;
    throw new UsageError(
      `no command given, so serve would run, and ${error.message.replace(/^serve has /, 'it has ')}`,
    );
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    // By name: config.ts (and zod with it) is loaded only by the commands that read the configuration.
    const setting = (error as Error).name === 'ConfigError';
    if (setting || error instanceof UsageError) {
      // A setting given as a flag (serve --port) is explained by its command's help, one in the environment by
      // the settings list.
      const byFlag = setting && running !== undefined && (error as Error).message.startsWith('--');
      // The config file is named by its absolute path: its keys are listed apart from the environment's.
      const inFile = setting && (error as Error).message.startsWith('/');
      const saysWhere = (error as Error).message.includes('docs/configuration.md');
      const help = inFile
        ? 'docs/configuration.md shows each key with an example'
        : setting && !byFlag
          ? 'macpilot --help lists the settings'
          : running
            ? `macpilot ${running} --help shows its options`
            : 'macpilot --help lists the commands';
      // Each problem of the command line on a line of its own, each said to be the command's ("macpilot find:",
      // as its failures are) or macpilot's; a problem's own Why and Next lines go under it as they are.
      const command = !setting && running !== undefined ? running : undefined;
      const lines = (error as Error).message.split('\n').map((line) => {
        if (/^(Why|Next): /.test(line)) return line;
        if (command === undefined) return `macpilot: ${line}`;
        return `macpilot ${command}: ${line.startsWith(`${command}: `) ? line.slice(command.length + 2) : line}`;
      });
      process.stderr.write(`${lines.join('\n')}\n${inFile && saysWhere ? '' : `(${help})\n`}`);
      process.exit(USAGE_EXIT);
    }
    // A failure that says what, why and what to do (install-helper's, a platform without a helper): exit 1.
    if (error instanceof MacpilotError) {
      process.stderr.write(`macpilot${running ? ` ${running}` : ''}: ${error.renderForPerson()}\n`);
      process.exit(1);
    }
    process.stderr.write(`macpilot: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);

/** `unknown command "x"; did you mean macpilot y?` */
function unknownCommand(named: string): string {
  const near = nearestNames(
    named,
    COMMANDS.map((c) => c.name),
  );
  const commands = COMMANDS.map((c) => c.name).join(', ');
  return near.length > 0
    ? `unknown command "${named}"; did you mean ${near.map((n) => `macpilot ${n}`).join(' or ')}? The commands: ${commands}`
    : `unknown command "${named}"; the commands: ${commands}`;
}
