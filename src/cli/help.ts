/** The usage text of `macpilot` and of each command, made from the command table. */
import { VERSION } from '../version.js';
import { COMMANDS, type CommandSpec, optionsOf, type OptionSpec } from './commands.js';

/** The settings in the environment, each with what it takes: the same two columns as commands and options. */
const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['MACPILOT_MODE', 'full|safe|read-only'],
  ['MACPILOT_TOOLSETS', 'what serve offers agents; the commands here use every toolset'],
  [
    'MACPILOT_DENY_APPS',
    'comma-separated app names or bundle ids, in place of both default lists (credential managers denied; ' +
      'terminals and settings read-only); "none" empties them',
  ],
  ['MACPILOT_ALLOW_APPS', 'comma-separated app names or bundle ids: only these apps'],
  ['MACPILOT_LIST_DENIED_APPS', "on|off: list the denied apps' names and window titles"],
  ['MACPILOT_CONSENT', 'ask|allow'],
  ['MACPILOT_INPUT', 'foreground|background: leave the pointer and the focus to the person'],
  [
    'MACPILOT_PERSON_FIRST',
    "on|off: your own mouse and keyboard input stops an agent's; on by default in safe mode",
  ],
  [
    'MACPILOT_CONSOLE_PICTURES',
    "on|off: the console's pictures of each action; off by default in read-only mode",
  ],
  [
    'MACPILOT_ACCESSIBILITY',
    "on|leave: on Linux, turn the desktop's accessibility switch on, so browsers and Electron apps have trees",
  ],
  [
    'MACPILOT_PORTAL',
    'auto|on|off: on Wayland, input and screenshots through the RemoteDesktop portal, which asks you first',
  ],
  ['MACPILOT_CLIPBOARD_HISTORY', 'on|off'],
  ['MACPILOT_RATE_LIMITS', 'e.g. "calls_per_second=20,concurrent=8,action_seconds=60"'],
  ['MACPILOT_AUDIT_LOG', 'a file, or "off"'],
  ['MACPILOT_CONTROL_DIR', 'where servers and macpilot stop meet; default $XDG_RUNTIME_DIR/macpilot'],
  ['MACPILOT_HTTP_PORT, MACPILOT_HTTP_HOST', 'serve --http'],
  ['MACPILOT_HTTP_TOKEN', 'every HTTP request must carry "Authorization: Bearer <token>"'],
  ['MACPILOT_HELPER_PATH', 'a helper to run instead of the bundled one'],
  ['MACPILOT_LOG_LEVEL', 'debug|info|warn|error|silent'],
  [
    'MACPILOT_CONFIG',
    'a JSON file; default $XDG_CONFIG_HOME/macpilot/config.json (~/.config/macpilot/config.json); its keys: docs/configuration.md',
  ],
];

const EXITS =
  'Exit codes: 0 done, 1 failed (the message says what, why and what to do), 2 usage error (the command line, a value in it, or a setting is not one the command takes), 130 interrupted.';

export const usageLine = (command: CommandSpec): string =>
  `macpilot ${command.name}${command.args ? ` ${command.args}` : ''}`;

const optionWords = (option: OptionSpec): string =>
  [option.short ? `-${option.short}, ` : '', `--${option.name}`, option.value ? ` ${option.value}` : ''].join(
    '',
  );

const WIDTH = 110;
const LEFT = 30;

/** Words wrapped to lines of at most `width` characters, each line after the first indented by `indent`. */
function wrap(text: string, width = WIDTH, indent = 0): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** Two columns: what to type, what it does; a long left side puts its right side on the next line. */
function columns(rows: readonly (readonly [string, string])[]): string {
  const width = Math.min(LEFT, Math.max(...rows.map(([left]) => left.length)) + 2);
  return rows
    .map(([left, right]) => {
      const text = wrap(right, WIDTH - 2 - width, 2 + width);
      return left.length + 2 > width
        ? `  ${left}\n${' '.repeat(2 + width)}${text}`
        : `  ${left.padEnd(width)}${text}`;
    })
    .join('\n');
}

export function usage(): string {
  const commands = columns(
    COMMANDS.map((command) => [usageLine(command).slice('macpilot '.length), command.summary]),
  );
  return `macpilot ${VERSION}: an MCP server that operates the desktop through its accessibility tree, and the
commands that do what its tools do, from a terminal

Usage: macpilot <command> [arguments] [options]   (no command: serve)

Commands:
${commands}
  --version | --help

\`macpilot <command> --help\` shows a command's options. The commands run the MCP tools, under the same policy
(mode, app lists, consent, audit), and print what an agent would read, with element paths where it reads refs;
--format json prints the tool's structured result.

${wrap(EXITS)}

Environment (flags override the environment, which overrides the config file):
${columns(ENVIRONMENT)}
`;
}

/** A command's summary as the sentence that opens its help: capitalized, unless it starts with a name such as macOS. */
const summarySentence = ({ summary }: CommandSpec): string =>
  /^[a-z]+[A-Z]/.test(summary) ? summary : `${summary[0]?.toUpperCase() ?? ''}${summary.slice(1)}`;

export function commandHelp(command: CommandSpec): string {
  const options = columns(optionsOf(command).map((option) => [optionWords(option), option.help]));
  return [
    `Usage: ${usageLine(command)}`,
    '',
    wrap(`${summarySentence(command)}.`),
    ...(command.details ? ['', wrap(command.details)] : []),
    '',
    'Options:',
    options,
    ...(command.example ? ['', `Example: ${command.example}`] : []),
    ...(command.kind === 'tool' ? ['', wrap(EXITS)] : []),
    '',
  ].join('\n');
}

/** A markdown cell: pipes escaped, one line. */
const cell = (text: string): string => text.replaceAll('|', '\\|');

/** docs/cli.md: every command, its options and the tools it calls, from the command table. */
export function markdownReference(): string {
  const sections = COMMANDS.map((command) => {
    const options = optionsOf(command).map((o) => `| \`${cell(optionWords(o))}\` | ${cell(o.help)} |`);
    return [
      `## ${command.name}`,
      '',
      '```',
      usageLine(command),
      '```',
      '',
      `${summarySentence(command)}.${command.details ? ` ${command.details}` : ''}`,
      ...(command.tools ? ['', `Tools: ${command.tools.map((tool) => `\`${tool}\``).join(', ')}.`] : []),
      '',
      '| option | |',
      '| --- | --- |',
      ...options,
      ...(command.example ? ['', `Example: \`${command.example}\``] : []),
      '',
    ].join('\n');
  });
  return `# The macpilot command line

<!-- Generated from src/cli/commands.ts by \`npm run docs:cli\`; test/unit/cli/docs.test.ts checks it. -->

\`macpilot <command> [arguments] [options]\`; no command runs \`serve\`. The tool commands make the same tool
calls an agent makes, on the same engine and under the same policy (mode, app lists, rate limits, consent, audit
log). They print what the agent would read, except that elements are named by their paths (\`button "OK" at
app("zenity")/dialog/button["OK"]\`) where the agent reads refs: each command is a process of its own, and
refs live only as long as one. Every path they print, the next command accepts. \`--format json\` prints the
tool's structured result (for \`tree\`, every element walked, with its children; for a tool without one,
\`{"text": ...}\`); failures go to stderr as text in either format. ${EXITS} Slow calls show a spinner on stderr when stderr is a terminal.

An action that needs a human's consent (safe mode, or a tool marked destructive) asks at the terminal; \`--yes\`
allows it in advance, and without a terminal and without \`--yes\` it is refused. An app name that several running
apps share is asked about at the terminal too (\`--yes\` does not answer that); without a terminal the error lists
the apps with their pids.

${sections.join('\n')}`;
}
