/** The CLI's docs say what the code does: docs/cli.md is generated from the command table, checked here. */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands.js';
import { markdownReference, usageLine } from '../../../src/cli/help.js';
import { TOOL_COMMANDS } from '../../../src/cli/tool-commands.js';
import { SETUP_USAGE } from '../../../src/setup/index.js';
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

test("setup's options are those its own usage text gives (it parses its arguments itself)", () => {
  const setup = COMMANDS.find((c) => c.name === 'setup');
  for (const option of setup?.options ?? []) {
    expect(SETUP_USAGE, option.name).toContain(`--${option.name}${option.value ? ` ${option.value}` : ''}`);
  }
  const listed = [...SETUP_USAGE.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1]);
  expect(listed.sort()).toEqual((setup?.options ?? []).map((o) => o.name).sort());
});

test("README's CLI section shows every command's usage line", () => {
  const section = /<!-- cli-commands -->([\s\S]*?)<!-- \/cli-commands -->/.exec(read('README.md'))?.[1] ?? '';
  for (const command of COMMANDS) expect(section, command.name).toContain(usageLine(command));
});
