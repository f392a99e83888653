/**
 * `macpilot setup <client>`: adds macpilot to an MCP client's own configuration, the way that client documents
 * it, and says where it wrote, what it kept and how to undo it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseCommandLine } from '../cli/arguments.js';
import { commandSpec } from '../cli/commands.js';
import { UsageError } from '../cli/usage-error.js';
import { ConfigError, parseToolsets } from '../config.js';
import { MacpilotError } from '../errors.js';
import { findProgram } from '../services/process.js';
import { shellQuote, singleQuoted } from '../text.js';
import { MODES } from '../modes.js';
import { CLIENTS, type ClientId, fileClient, isClient, type Machine, PROJECT_FILES } from './clients.js';
import { applyJsonChange, backUp, backupPlace, planJsonChange } from './json-file.js';
import { keepSettings, SERVER_NAME, type ServerEntry, serverEntry } from './launch.js';

export interface SetupContext extends Machine {
  out: (text: string) => void;
  err: (text: string) => void;
  /** The server entry for the chosen settings (how this macpilot was started, by default). */
  entry?: (settings: Parameters<typeof serverEntry>[0]) => ServerEntry;
}

const defaultContext = (): SetupContext => ({
  home: homedir(),
  platform: process.platform,
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});

const SETUP = commandSpec('setup');

const isFolder = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;

interface SetupRequest {
  client: ClientId;
  dryRun: boolean;
  /** The project folder whose configuration is written, rather than the user's. */
  project?: string;
  server: ServerEntry;
}

function parseRequest(argv: string[], context: SetupContext): SetupRequest | 'help' {
  const parsed = parseCommandLine(SETUP, argv);
  const values = parsed.values as {
    help?: boolean;
    'dry-run'?: boolean;
    mode?: string;
    toolsets?: string;
    project?: string;
  };
  const { positionals } = parsed;
  if (values.help) return 'help';
  const [client, ...extra] = positionals;
  if (client === undefined) throw new UsageError('name the client to set up');
  if (!isClient(client)) throw new UsageError(`unknown client "${client}"; valid: ${CLIENTS.join(', ')}`);
  if (extra.length > 0) throw new UsageError(`unexpected "${extra.join(' ')}"`);
  if (values.project !== undefined && PROJECT_FILES[client] === undefined) {
    throw new UsageError(`--project: ${client} has no configuration per project`);
  }
  if (values.project !== undefined && !isFolder(resolve(values.project))) {
    throw new UsageError(
      `--project: ${resolve(values.project)} is not a folder; give the project's folder (it must exist)`,
    );
  }
  // As the server reads MACPILOT_MODE: whatever the case.
  const mode =
    values.mode === undefined ? undefined : MODES.find((m) => m === values.mode?.trim().toLowerCase());
  if (values.mode !== undefined && mode === undefined) {
    throw new UsageError(`--mode: unknown mode "${values.mode}"; valid: ${MODES.join(', ')}`);
  }
  let toolsets;
  try {
    toolsets = values.toolsets === undefined ? undefined : parseToolsets(values.toolsets, '--toolsets');
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const settings = { mode, toolsets };
  return {
    client,
    dryRun: values['dry-run'] === true,
    project: values.project === undefined ? undefined : resolve(values.project),
    server: (context.entry ?? serverEntry)(settings),
  };
}

/**
 * Runs `macpilot setup`; answers the exit code: 0 done, 1 failed, 2 usage. `usage`: its help, which the CLI makes
 * from the command table (src/cli/commands.ts), as for every command.
 */
export async function setup(
  argv: string[],
  context: SetupContext = defaultContext(),
  usage = 'macpilot setup --help shows the usage.\n',
): Promise<number> {
  let request;
  try {
    request = parseRequest(argv, context);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    context.err(`macpilot setup: ${error.message}\n(macpilot setup --help shows its options)\n`);
    return 2;
  }
  if (request === 'help') {
    context.out(usage);
    return 0;
  }
  try {
    const claude =
      request.client === 'claude-code' && request.project === undefined
        ? findProgram('claude', context.env)
        : undefined;
    if (claude !== undefined) throughClaude(claude, request, context);
    else intoFile(request, context);
    return 0;
  } catch (error) {
    if (error instanceof MacpilotError) context.err(`macpilot setup: ${error.render()}\n`);
    // A file that cannot be read or written (permissions, a full disk): what the system said is the reason.
    else if (typeof (error as NodeJS.ErrnoException).code === 'string') {
      context.err(`macpilot setup: ${(error as Error).message}\n`);
    } else throw error;
    return 1;
  }
}

const describeServer = ({ command, args, env }: ServerEntry): string =>
  [...Object.entries(env).map(([name, value]) => `${name}=${value}`), command, ...args].join(' ');

/** What a replaced entry's settings that this run kept say, with the flag that changes them. */
const keptNote = (kept: readonly string[], server: ServerEntry): string =>
  kept.length === 0
    ? ''
    : `Kept from the entry it replaces: ${kept.map((name) => `${name}=${server.env[name]}`).join(', ')} ` +
      `(${kept.map((name) => (name === 'MACPILOT_MODE' ? '--mode' : '--toolsets')).join(' and ')} ${kept.length > 1 ? 'change them' : 'changes it'}).\n`;

function intoFile(request: SetupRequest, context: SetupContext): void {
  const { client, dryRun, project } = request;
  const target = fileClient(client, context, project);
  const first = planJsonChange(target.file, target.key, SERVER_NAME, target.entry(request.server));
  const { server, kept } = keepSettings(request.server, first.previous);
  const change =
    kept.length === 0 ? first : planJsonChange(target.file, target.key, SERVER_NAME, target.entry(server));
  if (dryRun) {
    context.out(
      `Would write ${target.file}${change.before === undefined ? ' (a new file)' : `, after a backup of it to ${backupPlace(target.file)}`}:\n` +
        `${change.after}${keptNote(kept, server)}Nothing was changed (--dry-run).\n`,
    );
    return;
  }
  if (change.before === change.after) {
    // Set up already, as asked: nothing to write, and no backup of a file that stays as it is.
    context.out(
      `"${SERVER_NAME}" is already in ${target.name}'s ${target.file} as asked; nothing was changed.\n` +
        `It runs: ${describeServer(server)}\n` +
        keptNote(kept, server),
    );
    return;
  }
  const { backup } = applyJsonChange(change);
  context.out(
    `${change.replaces ? 'Replaced' : 'Added'} "${SERVER_NAME}" in ${target.name}'s ${target.file}` +
      `${change.kept.length > 0 ? ` (kept: ${change.kept.join(', ')})` : ''}.\n` +
      `It runs: ${describeServer(server)}\n` +
      keptNote(kept, server) +
      (backup === undefined ? '' : `Backup of the previous file: ${backup}\n`) +
      `Next: ${target.then}.\n` +
      `Undo: ${backup === undefined ? `rm ${singleQuoted(target.file)}` : `mv ${singleQuoted(backup)} ${singleQuoted(target.file)}`}\n`,
  );
}

/** Claude Code's user scope (every project of this user), through its own CLI. */
function throughClaude(claude: string, request: SetupRequest, context: SetupContext): void {
  const { dryRun } = request;
  const settings = fileClient('claude-code', context);
  const settingsFile = settings.file;
  const previous = userServer(settingsFile);
  const { server, kept } = keepSettings(request.server, previous);
  const json = JSON.stringify(settings.entry(server));
  const replacing = previous !== undefined;
  const remove = ['mcp', 'remove', '--scope', 'user', SERVER_NAME];
  const commands = [
    ...(replacing ? [remove] : []),
    ['mcp', 'add-json', '--scope', 'user', SERVER_NAME, json],
  ];
  const command = (args: string[]) => `claude ${args.map(shellQuote).join(' ')}`;
  const shown = commands.map(command).join('\n');
  // Undoing a replacement puts the old entry back; undoing an addition removes it.
  const undo = [
    remove,
    ...(replacing ? [['mcp', 'add-json', '--scope', 'user', SERVER_NAME, JSON.stringify(previous)]] : []),
  ]
    .map(command)
    .join(' && ');
  if (dryRun) {
    const backup = existsSync(settingsFile)
      ? `, after a backup of ${settingsFile} to ${backupPlace(settingsFile)}`
      : '';
    context.out(`Would run${backup}:\n${shown}\n${keptNote(kept, server)}Nothing was changed (--dry-run).\n`);
    return;
  }
  const backup = existsSync(settingsFile) ? backUp(settingsFile) : undefined;
  for (const args of commands) runClaude(claude, args, context);
  context.out(
    `${replacing ? 'Replaced' : 'Added'} "${SERVER_NAME}" in Claude Code's user scope, with:\n${shown}\n` +
      `It runs: ${describeServer(server)}\n` +
      keptNote(kept, server) +
      (backup === undefined ? '' : `Backup of ${settingsFile} before the change: ${backup}\n`) +
      `Next: run \`claude mcp list\` to check that it connects.\n` +
      `Undo: ${undo}\n`,
  );
}

/** The entry Claude Code's user scope has for macpilot now, if any. */
function userServer(settingsFile: string): unknown {
  try {
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as {
      mcpServers?: Record<string, unknown>;
    };
    return settings.mcpServers?.[SERVER_NAME];
  } catch {
    return undefined;
  }
}

function runClaude(claude: string, args: string[], context: SetupContext): void {
  try {
    execFileSync(claude, args, { env: context.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  } catch (error) {
    const failed = error as { stderr?: Buffer; stdout?: Buffer; message: string };
    throw new MacpilotError({
      what: `\`claude ${args.slice(0, 2).join(' ')}\` failed`,
      why: (`${failed.stderr ?? ''}${failed.stdout ?? ''}`.trim() || failed.message).slice(0, 2000),
      next: 'run the command shown by `macpilot setup claude-code --dry-run` by hand to see what Claude Code says',
      kind: 'claude_cli_failed',
    });
  }
}
