/**
 * The commands of `macpilot`, as data: what each takes and says. The usage text, each command's --help, the
 * shell completions and docs/cli.md are all made from this table; it imports nothing heavy, so `--help` stays
 * fast. What a tool command does is in tool-commands.ts, loaded when one runs.
 */
import { MODES } from '../modes.js';
import { DEFAULT_PAUSE_MS, MAX_PAUSE_MS } from '../policy/desk.js';
import { CLIENTS, PROJECT_FILES } from '../setup/clients.js';
import { TOOLSET_NAMES } from '../toolsets.js';
import { WAIT_CONDITIONS, WAIT_DEFAULTS } from '../engine/features/wait-conditions.js';

export interface OptionSpec {
  name: string;
  short?: string;
  /** The value's placeholder (N, APP, FILE); absent: a flag that takes no value. */
  value?: string;
  help: string;
  /** The values it takes, when they are a fixed list (completed by the shells). */
  choices?: readonly string[];
}

export interface CommandSpec {
  name: string;
  /** What follows the name, as the usage line shows it. */
  args: string;
  summary: string;
  /** Positional arguments after the name: at least, at most. */
  positionals: readonly [number, number];
  options: readonly OptionSpec[];
  /** Words the first positional takes, when they are a fixed list. */
  words?: readonly string[];
  /** tool: tool calls on the engine, printed as text or JSON; own: the command prints what it prints. */
  kind: 'tool' | 'own';
  /** The MCP tools it calls (docs/cli.md names them). */
  tools?: readonly string[];
  /** More about it, for its --help. */
  details?: string;
  example?: string;
}

export const FORMATS = ['text', 'json'] as const;
export type Format = (typeof FORMATS)[number];

const FORMAT: OptionSpec = {
  name: 'format',
  value: 'FORMAT',
  help: 'text (default: the answer in words, elements named by their paths) or json (the answer as fields, for scripts)',
  choices: FORMATS,
};
const YES: OptionSpec = {
  name: 'yes',
  short: 'y',
  help: "allow an action that needs a human's consent without asking (you are the human)",
};
const APP: OptionSpec = {
  name: 'app',
  value: 'APP',
  help: 'app name (as `macpilot apps` shows it), pid, or app(…) as a path begins; default: the active app',
};

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** Options every command takes. */
export const HELP: OptionSpec = { name: 'help', short: 'h', help: 'show this help' };

const PATH_NOTE =
  'A path names an element as the tree prints it, e.g. app("mousepad")/window[0]/menubar/menu["File"]; quote ' +
  'it for the shell. When several running apps share a name, paths name the app by its pid, e.g. ' +
  'app(1118)/dialog/button["OK"], and a path by the shared name asks at the terminal which app is meant. A path ' +
  'that matches several elements is refused with the candidates; a step without an index, where only one of the ' +
  'elements it matches is on screen, names that one (tree prints statusbar where tree --all, which also lists ' +
  'the one off screen, prints statusbar[0]: both name the same element).';

/** Where keys go, for a command that types (`how`: what else it can be given, `example`: the command to run). */
const focusNote = (how: string, example: string): string =>
  'The focused element is in the active app, which is often the terminal you type the command in (the default ' +
  `app lists keep macpilot from acting on the common terminals), so ${how}let another app come to the front ` +
  `first (e.g. \`sleep 3; ${example}\`).`;

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'apps',
    args: '',
    summary: 'list the running apps that expose an accessibility tree',
    positionals: [0, 0],
    options: [FORMAT],
    kind: 'tool',
    tools: ['list_apps'],
    example: 'macpilot apps --format json',
  },
  {
    name: 'launch',
    args: '<app>',
    summary: 'start an app (by name, or desktop / bundle id) and wait until its accessibility tree is there',
    positionals: [1, 1],
    options: [FORMAT],
    kind: 'tool',
    tools: ['launch_app'],
    example: 'macpilot launch mousepad',
  },
  {
    name: 'displays',
    args: '',
    summary: 'list the displays: their ids, where they are on the screen, their size and scale',
    positionals: [0, 0],
    options: [FORMAT],
    kind: 'tool',
    tools: ['list_displays'],
    example: 'macpilot displays',
  },
  {
    name: 'windows',
    args: '[app]',
    summary: 'list the top-level windows, front to back (of one app)',
    positionals: [0, 1],
    options: [{ name: 'minimized', help: 'also list minimized windows' }, FORMAT],
    kind: 'tool',
    tools: ['list_windows'],
    example: 'macpilot windows mousepad',
  },
  {
    name: 'tree',
    args: '[app] [--depth N] [--all]',
    summary: 'print the accessibility tree of an app (default: the active app), each element with its path',
    positionals: [0, 1],
    options: [
      {
        name: 'depth',
        value: 'N',
        help: 'levels to show under the app, as printed, 1 to 64 (default: the whole tree, as deep as a walk of 20 levels reaches)',
      },
      {
        name: 'all',
        help: 'also elements not on screen (closed menus, other tabs), and up to 5000 lines instead of 400',
      },
      FORMAT,
    ],
    kind: 'tool',
    tools: ['snapshot_ui'],
    details: `The app is its name, its pid, or app(…) as a path begins (app(1118), as the application's line prints it). Each line is one element: role, name, its path after "at", states and value. ${PATH_NOTE}`,
    example: 'macpilot tree mousepad --depth 4',
  },
  {
    name: 'find',
    args: '<text> [--app A] [--role R] [--max N] [--all]',
    summary: 'find elements whose name, value or description contains the text',
    positionals: [1, 1],
    options: [
      APP,
      { name: 'role', value: 'ROLE', help: 'only elements of this role, e.g. button, textbox, menuitem' },
      { name: 'all', help: 'also elements not on screen' },
      { name: 'max', value: 'N', help: 'show at most N matches (default 25, at most 500)' },
      FORMAT,
    ],
    kind: 'tool',
    tools: ['find_elements'],
    details:
      'With --format json each match carries its path, which `macpilot get` takes: ' +
      '`macpilot find OK --app zenity --role button --format json | macpilot get -`.',
    example: 'macpilot find OK --app zenity --role button',
  },
  {
    name: 'get',
    args: '<path | ->',
    summary: 'everything about one element: role, name, value, states, bounds, actions',
    positionals: [1, 1],
    options: [FORMAT],
    kind: 'tool',
    tools: ['get_element'],
    details:
      `${PATH_NOTE} With -, the path comes from the JSON of another command on stdin: an element's path (get), ` +
      'the element a `wait` saw, the target of an action (click, set, type, menu), the only match of `find`, or ' +
      'the only item of a `menu --list`.',
    example: `macpilot get 'app("zenity")/dialog/button["OK"]'`,
  },
  {
    name: 'click',
    args: '<path | x,y>',
    summary:
      'click an element (its own press action; on a text field, or where the toolkit needs one, a real click at its centre, which moves the pointer) or a screen point, and print what changed',
    positionals: [1, 1],
    options: [
      {
        name: 'button',
        value: 'BUTTON',
        help: 'left (default), right or middle',
        choices: ['left', 'right', 'middle'],
      },
      { name: 'double', help: 'a double click' },
      YES,
      FORMAT,
    ],
    kind: 'tool',
    tools: ['click_element', 'click'],
    details: `x,y is a point on the screen (origin at the top left), e.g. 640,400. ${PATH_NOTE}`,
    example: `macpilot click 'app("zenity")/dialog/button["OK"]'`,
  },
  {
    name: 'type',
    args: '<text> [--into path]',
    summary: 'type text as key presses into the focused element, or into the element at a path',
    positionals: [1, 1],
    options: [
      { name: 'into', value: 'PATH', help: 'the element to type into (focused first)' },
      { name: 'clear', help: "select all and delete the field's text first" },
      { name: 'submit', help: 'press Enter after typing' },
      YES,
      FORMAT,
    ],
    kind: 'tool',
    tools: ['type_text'],
    details: focusNote('give --into, or ', "macpilot type 'Hello'"),
    example: `macpilot type 'Hello' --into 'app("mousepad")/window[0]/tablist/tab/textbox'`,
  },
  {
    name: 'key',
    args: '<combo>',
    summary: 'press a key or a chord in the focused element, e.g. enter, ctrl+s, alt+f4',
    positionals: [1, 1],
    options: [{ name: 'repeat', value: 'N', help: 'press it N times (1 to 100; default 1)' }, YES, FORMAT],
    kind: 'tool',
    tools: ['press_key'],
    details: focusNote('', 'macpilot key ctrl+s'),
    example: 'macpilot key ctrl+s',
  },
  {
    name: 'set',
    args: '<path> <value>',
    summary:
      "set an element's value: a field's text, a slider's number, a check box's true or false, a select's option",
    positionals: [2, 2],
    options: [YES, FORMAT],
    kind: 'tool',
    tools: ['get_element', 'set_value'],
    details:
      'The value is read as the element holds it: true/false for a toggle, a number for a slider or spin ' +
      `button, text otherwise (for a web page's select, the name of one of its options). ${PATH_NOTE}`,
    example: `macpilot set 'app("zenity")/dialog/textbox' 'Ada'`,
  },
  {
    name: 'menu',
    args: '<app> ["File > Save As…"] [--list]',
    summary: 'choose a menu item by its path in the menu bar (with --list: list a menu instead)',
    positionals: [1, 2],
    options: [
      { name: 'list', help: 'list the menu bar, or the menu the path names, instead of clicking' },
      YES,
      FORMAT,
    ],
    kind: 'tool',
    tools: ['click_menu_item', 'list_menu_items'],
    example: 'macpilot menu mousepad "File > Save As…"',
  },
  {
    name: 'screenshot',
    args: '[--app A | --window ID | --region x,y,w,h | --display ID] [-o file.png]',
    summary: 'save a PNG (or .jpg) of the screen, an app window, a window or a region',
    positionals: [0, 0],
    options: [
      { ...APP, help: "the app's front-most window" },
      { name: 'window', value: 'ID', help: 'a window: its id (`macpilot windows`), or part of its title' },
      { name: 'region', value: 'x,y,w,h', help: 'a screen area in points' },
      { name: 'display', value: 'ID', help: 'a whole display: its id (`macpilot displays`)' },
      {
        name: 'black-out',
        help: 'paint black the windows of apps the app lists hide (default in safe and read-only mode)',
      },
      {
        name: 'output',
        short: 'o',
        value: 'FILE',
        help:
          'the new file to write (default: macpilot-screenshot-<time>.png here), readable by you only, never ' +
          'overwritten; "-": the PNG ' +
          'to stdout (read-only mode writes no file)',
      },
      FORMAT,
    ],
    kind: 'tool',
    tools: ['take_screenshot'],
    example: 'macpilot screenshot --app mousepad -o mousepad.png',
  },
  {
    name: 'clipboard',
    args: '[get [--max-chars N] | set <text | -> | clear]',
    summary: 'print, set or clear the text on the clipboard',
    positionals: [0, 2],
    words: ['get', 'set', 'clear'],
    options: [
      {
        name: 'max-chars',
        value: 'N',
        help: 'get: print at most N characters of the text (default 20000, at most 1000000)',
      },
      YES,
      FORMAT,
    ],
    kind: 'tool',
    tools: ['get_clipboard', 'set_clipboard', 'clear_clipboard'],
    details:
      'On X11 the text on the clipboard belongs to the process that put it there and goes when it exits, so ' +
      'macpilot leaves a detached process holding the text it set (as xclip does) until another app takes ' +
      'the clipboard, or `clipboard clear`. `clipboard set -` copies the text piped to it, for a text longer ' +
      'than a command line takes (up to 10,000,000 characters); to copy a lone "-", pipe it in: ' +
      '`printf %s - | macpilot clipboard set -`.',
    example: 'macpilot clipboard set "Hello"',
  },
  {
    name: 'wait',
    args: '<condition> [path] [--app A] [--text T] [--role R] [--name N] [--timeout MS] [--idle MS]',
    summary: 'wait until the UI shows what you expect: an element, a value, a window title',
    positionals: [1, 2],
    words: WAIT_CONDITIONS,
    options: [
      APP,
      { name: 'text', value: 'T', help: 'the value, text or title part to wait for; appears: text to find' },
      { name: 'role', value: 'ROLE', help: 'appears / disappears: a role to find' },
      { name: 'name', value: 'NAME', help: 'appears / disappears: a name to find' },
      {
        name: 'timeout',
        value: 'MS',
        help: `how long to wait, 0 (look once) to ${WAIT_DEFAULTS.maxTimeoutMs} (default ${WAIT_DEFAULTS.timeoutMs})`,
      },
      {
        name: 'idle',
        value: 'MS',
        help: `app_idle: how long without a UI change, 10 to ${WAIT_DEFAULTS.maxTimeoutMs} (default ${WAIT_DEFAULTS.idleMs})`,
      },
      FORMAT,
    ],
    kind: 'tool',
    tools: ['wait_for'],
    details:
      `Conditions: ${WAIT_CONDITIONS.join(', ')}. appears / disappears take a path or --text / --role / ` +
      '--name; value_equals and value_contains a path and --text; text_appears and window_title --text (and ' +
      '--app); enabled and focused a path; app_idle optionally --app (default: the active app) and --idle. Exits 1 on timeout.',
    example: 'macpilot wait window_title --app mousepad --text Untitled',
  },
  {
    name: 'doctor',
    args: '',
    summary: 'check what this machine allows and how to fix what is missing',
    positionals: [0, 0],
    options: [FORMAT],
    kind: 'own',
  },
  {
    name: 'serve',
    args: '[--http] [--port N] [--host H] [--toolsets LIST]',
    summary: 'run the MCP server on stdin/stdout (or over Streamable HTTP)',
    positionals: [0, 0],
    options: [
      { name: 'http', help: 'serve Streamable HTTP at http://H:N/mcp (default 127.0.0.1:7420)' },
      { name: 'port', value: 'N', help: 'HTTP port (0: any free port); MACPILOT_HTTP_PORT' },
      {
        name: 'host',
        value: 'H',
        help: 'HTTP address to listen on; beyond loopback it needs MACPILOT_HTTP_TOKEN',
      },
      { name: 'toolsets', value: 'LIST', help: 'comma-separated toolsets, or "all"' },
    ],
    details:
      'On stdin, one message may be 12 MiB at most: a longer one ends the server, which says so on stderr (over HTTP, a body over 4 MiB is answered 413).',
    kind: 'own',
  },
  {
    name: 'setup',
    args: `<${CLIENTS.join(' | ')}> [--dry-run] [--mode M] [--toolsets LIST] [--project DIR]`,
    summary: "add macpilot to an MCP client's configuration (a backup first) and say how to undo it",
    positionals: [1, 1],
    words: CLIENTS,
    options: [
      { name: 'dry-run', help: 'print what would be written or run, and change nothing' },
      { name: 'mode', value: 'M', help: "the server's MACPILOT_MODE", choices: MODES },
      {
        name: 'toolsets',
        value: 'LIST',
        help: `comma-separated toolsets or "all": the server's MACPILOT_TOOLSETS (${TOOLSET_NAMES.join(', ')})`,
      },
      {
        name: 'project',
        value: 'DIR',
        help: `that project's file instead of the user's: ${Object.entries(PROJECT_FILES)
          .map(([client, file]) => `${(file?.path ?? []).join('/')} (${client})`)
          .join(', ')}`,
      },
    ],
    kind: 'own',
    details:
      'Claude Code is configured with `claude mcp add-json --scope user` when the claude command is on the PATH, ' +
      'else in ~/.claude.json; the others in their JSON files, keeping the servers already there.',
    example: 'macpilot setup claude-code --mode safe',
  },
  {
    name: 'stop',
    args: '[--minutes N]',
    summary: 'stop every macpilot server of yours: cancel what agents are doing and pause their actions',
    positionals: [0, 0],
    options: [
      {
        name: 'minutes',
        value: 'N',
        help: `how long actions stay paused, 0 to ${MAX_PAUSE_MS / 60_000} (default ${DEFAULT_PAUSE_MS / 60_000}; 0 cancels without pausing and lifts a pause in force; \`macpilot resume\` ends a pause sooner)`,
      },
    ],
    kind: 'own',
    details:
      'Every call in flight, in every session of every macpilot server of this user, is cancelled (typing stops ' +
      'between two keys, held keys and buttons are let go), and actions are answered "paused by the person at ' +
      'the desk" until the pause ends; reading the screen goes on. It reaches servers (`macpilot serve`, what MCP ' +
      'clients start); the commands you run here are yours and are not paused.',
  },
  {
    name: 'console',
    args: '[--port N] [--no-open]',
    summary: 'watch, approve and stop what agents do, in a page of your browser',
    positionals: [0, 0],
    options: [
      { name: 'port', value: 'N', help: 'port on 127.0.0.1 (default 0: any free port)' },
      { name: 'no-open', help: 'print the link without opening a browser' },
    ],
    kind: 'own',
    details:
      'Serves a page on 127.0.0.1 and opens it once through a link that works once (it leaves a cookie in the ' +
      'browser that opens it), in a Chromium or Chrome window of its own that agents can neither see nor operate ' +
      '(without either: the default browser; open the link in one agents do not operate). The page shows ' +
      "every macpilot server's calls as they run (tool, target, outcome, " +
      'what changed, the screen before and after an action), the screen live, and the questions that need your ' +
      'consent (Allow once, Allow for the session, Deny; unanswered within 2 minutes: denied). Stop does what ' +
      '`macpilot stop` does; Resume lets agents act again. Ctrl-C, or closing its own window, ends the console; ' +
      'the agents go on.',
  },
  {
    name: 'resume',
    args: '',
    summary: 'let agents act again after `macpilot stop`',
    positionals: [0, 0],
    options: [],
    kind: 'own',
  },
  {
    name: 'install-helper',
    args: '',
    summary: "macOS: put the helper app in place now (npm's postinstall does)",
    positionals: [0, 0],
    options: [],
    kind: 'own',
  },
  {
    name: 'completion',
    args: 'bash|zsh|fish',
    summary: 'print a shell completion script',
    positionals: [1, 1],
    words: SHELLS,
    options: [],
    kind: 'own',
    details:
      'bash: `source <(macpilot completion bash)`; zsh: `source <(macpilot completion zsh)`; fish: ' +
      '`macpilot completion fish > ~/.config/fish/completions/macpilot.fish`.',
  },
];

export function commandNamed(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/** A command the table has, by name (a name written in code, not typed by a person). */
export function commandSpec(name: string): CommandSpec {
  const found = commandNamed(name);
  if (!found) throw new Error(`the command table has no ${name}`);
  return found;
}

/** A command's options, --help included. */
export const optionsOf = (command: CommandSpec): readonly OptionSpec[] => [...command.options, HELP];
