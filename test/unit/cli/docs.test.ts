/** The CLI's docs say what the code does: docs/cli.md is generated from the command table, checked here. */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands.js';
import { commandHelp, markdownReference, usageLine } from '../../../src/cli/help.js';
import { TOOL_COMMANDS } from '../../../src/cli/tool-commands.js';
import { setup } from '../../../src/setup/index.js';
import { allTools } from '../../../src/tools/index.js';

const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');

test('docs/cli.md is what the command table generates (run `npm run docs:cli` after changing a command)', () => {
  expect(read('docs/cli.md')).toBe(markdownReference());
});

test('every tool command has its tool calls, and names only tools that exist', () => {
  const toolCommands = COMMANDS.filter((c) => c.kind === 'tool').map((c) => c.name);
  expect(Object.keys(TOOL_COMMANDS).sort()).toEqual([...toolCommands].sort());
  for (const command of COMMANDS) {
    for (const tool of command.tools ?? [])
      expect(
        allTools.map((t) => t.name),
        command.name,
      ).toContain(tool);
  }
});

test("setup --help is the command table's help, as every command's is (and so is docs/cli.md)", async () => {
  const setupCommand = COMMANDS.find((c) => c.name === 'setup');
  if (!setupCommand) throw new Error('no setup command');
  const out: string[] = [];
  const context = {
    home: '/nonexistent',
    env: {},
    platform: 'linux' as const,
    out: (t: string) => out.push(t),
    err: () => {},
  };
  expect(await setup(['--help'], context, commandHelp(setupCommand))).toBe(0);
  expect(out.join('')).toBe(commandHelp(setupCommand));
  expect(out.join('')).toContain('.vscode/mcp.json (vscode)');
});

test("README's CLI section shows every command's usage line", () => {
  const section = /<!-- cli-commands -->([\s\S]*?)<!-- \/cli-commands -->/.exec(read('README.md'))?.[1] ?? '';
  for (const command of COMMANDS) expect(section, command.name).toContain(usageLine(command));
});

test('--help lists every setting the environment gives, and the HTTP and config variables, one per line', async () => {
  const { usage } = await import('../../../src/cli/help.js');
  const { SETTING_VARIABLES } = await import('../../../src/config.js');
  const environment = usage().split('\nEnvironment')[1] ?? '';
  const named = [
    ...Object.values(SETTING_VARIABLES),
    'MACPILOT_HTTP_PORT',
    'MACPILOT_HTTP_HOST',
    'MACPILOT_HTTP_TOKEN',
    'MACPILOT_CONFIG',
  ];
  for (const name of named) expect(environment, name).toMatch(new RegExp(`^ {2}(\\S+, )?${name}\\b`, 'm'));
});
