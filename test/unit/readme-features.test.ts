/** README's feature table says, for every tool, whether each platform lists it: checked against the code. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { platformServices } from '../../src/platforms/index.js';
import { ALWAYS_ON, DEFAULT_TOOLSETS } from '../../src/toolsets.js';
import { allTools } from '../../src/tools/index.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

interface Row {
  toolset: string;
  byDefault: string;
  tools: string[];
  macos: string;
  linux: string;
}

function featureRows(): Row[] {
  const table = /<!-- feature-table[^>]*-->([\s\S]*?)<!-- \/feature-table -->/.exec(README)?.[1] ?? '';
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*(toolset|-)/.test(line))
    .map((line) => {
      const [toolset = '', byDefault = '', tools = '', macos = '', linux = ''] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { toolset, byDefault, tools: tools.split(/,\s*/), macos, linux };
    });
}

describe('README feature table', () => {
  const rows = featureRows();

  it('names every tool once, in its toolset, with the toolset default', () => {
    const named = rows.flatMap((row) => row.tools);
    expect([...named].sort()).toEqual(allTools.map((tool) => tool.name).sort());
    for (const row of rows) {
      for (const name of row.tools)
        expect(allTools.find((t) => t.name === name)?.toolset, name).toBe(row.toolset);
      const expected = ALWAYS_ON.includes(row.toolset as never)
        ? 'always'
        : DEFAULT_TOOLSETS.includes(row.toolset as never)
          ? 'yes'
          : 'no';
      expect(row.byDefault, row.toolset).toBe(expected);
    }
  });

  it('marks with — exactly the tools a platform does not list', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      const services = platformServices(platform);
      for (const row of rows) {
        const cell = platform === 'darwin' ? row.macos : row.linux;
        for (const name of row.tools) {
          const tool = allTools.find((t) => t.name === name);
          const served = tool?.service === undefined || services[tool.service] !== undefined;
          expect(cell === '—', `${name} on ${platform}: "${cell}"`).toBe(!served);
        }
      }
    }
  });
});
