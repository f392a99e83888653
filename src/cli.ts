#!/usr/bin/env node
/**
 * The `macpilot` command. What each command needs is loaded when it runs, so `--version` and `--help` start
 * about as fast as Node itself.
 */
import { parseArgs } from 'node:util';
import { MacpilotError } from './errors.js';
import { TOOLSETS } from './toolsets.js';
import { VERSION } from './version.js';

const USAGE = `macpilot ${VERSION}: an MCP server that operates the desktop through its accessibility tree

Usage:
  macpilot serve [--toolsets LIST]   run the MCP server on stdin/stdout
  macpilot serve --http [--port N] [--host H]
                                     run it over Streamable HTTP at http://H:N/mcp (default 127.0.0.1:7420)
  macpilot doctor                    check what this machine allows and how to fix what is missing
  macpilot install-helper            macOS: put the helper app in place now (npm's postinstall does)
  macpilot setup <claude-code | claude-desktop | cursor | vscode> [--dry-run] [--mode M] [--toolsets LIST]
                                     add macpilot to that client's MCP configuration (setup --help)
  macpilot --version | --help

Options:
  --toolsets LIST   comma-separated toolsets (${TOOLSETS.join(', ')}) or "all"
  --port N          HTTP port (0: any free port); MACPILOT_HTTP_PORT
  --host H          HTTP address to listen on; beyond loopback it needs MACPILOT_HTTP_TOKEN

Environment: MACPILOT_TOOLSETS, MACPILOT_HELPER_PATH, MACPILOT_LOG_LEVEL (debug|info|warn|error|silent),
MACPILOT_HTTP_TOKEN (every HTTP request must carry "Authorization: Bearer <token>"),
MACPILOT_RATE_LIMITS (e.g. "calls_per_second=20,concurrent=8"), MACPILOT_AUDIT_LOG (a file, or "off"),
MACPILOT_MODE (full|safe|read-only), MACPILOT_DENY_APPS and MACPILOT_ALLOW_APPS (comma-separated app names or
bundle ids; MACPILOT_DENY_APPS replaces the default list, "none" empties it), MACPILOT_CONSENT (ask|allow),
MACPILOT_CONFIG (a JSON file; default ~/.config/macpilot/config.json). Flags override the environment, which
overrides the file.
`;

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'setup') {
    const { setup } = await import('./setup/index.js');
    return setup(argv.slice(1));
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      toolsets: { type: 'string' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = positionals[0] ?? 'serve';
  if (values.help || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === 'serve' && positionals.length === 1) {
    const { serve } = await import('./serve.js');
    await serve({ toolsets: values.toolsets, http: values.http, port: values.port, host: values.host });
    return -1;
  }
  if (command === 'doctor' && positionals.length === 1) {
    const [{ doctor }, { loadConfig }] = await Promise.all([import('./doctor.js'), import('./config.js')]);
    return doctor(loadConfig(), (line) => process.stdout.write(`${line}\n`));
  }
  if (command === 'install-helper' && positionals.length === 1) {
    const { installHelper } = await import('./platforms/index.js');
    process.stdout.write(`${await installHelper()}\n`);
    return 0;
  }
  process.stderr.write(`macpilot: unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (
      // By name: config.ts (and zod with it) is loaded only by the commands that read the configuration.
      (error as Error).name === 'ConfigError' ||
      error instanceof MacpilotError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(
        `macpilot: ${error instanceof MacpilotError ? error.render() : (error as Error).message}\n`,
      );
      process.exit(2);
    }
    process.stderr.write(`macpilot: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
