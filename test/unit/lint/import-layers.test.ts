/**
 * The import rules of .dependency-cruiser.cjs bite: on a small tree made for the test, a cycle and an import
 * from the engine up to the tools are reported; on src, nothing is.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../support/temp.js';

const require = createRequire(import.meta.url);
const config = require('../../../.dependency-cruiser.cjs') as {
  forbidden: unknown[];
  options: Record<string, unknown>;
};

const violations = async (baseDir: string, tsConfig?: string) => {
  const { output } = await cruise(
    ['src'],
    {
      validate: true,
      ruleSet: { forbidden: config.forbidden } as never,
      baseDir,
      doNotFollow: { path: 'node_modules' },
      tsPreCompilationDeps: true,
      enhancedResolveOptions: { extensions: ['.ts', '.js', '.d.ts'] },
      ...(tsConfig ? { tsConfig: { fileName: tsConfig } } : {}),
    },
    undefined,
    tsConfig ? { tsConfig: { fileName: tsConfig } as never } : undefined,
  );
  const { summary } = output as ICruiseResult;
  return {
    found: summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
    dependencies: summary.totalDependenciesCruised,
  };
};

const fixture = temporaryFolder('macpilot-layers-');
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(fixture, path)), { recursive: true });
  writeFileSync(join(fixture, path), text);
}

describe('import layers', () => {
  it('reports a cycle, an import from a lower layer to a higher one, a tool using the helper client and a feature rendering', async () => {
    write('src/tools/types.ts', 'export const tool = 1;\n');
    write(
      'src/engine/kernel/kernel.ts',
      "import { tool } from '../../tools/types';\nexport const kernel = tool;\n",
    );
    write('src/engine/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
    write('src/helper-client/client.ts', 'export class HelperClient {}\n');
    write(
      'src/tools/session.ts',
      "import { HelperClient } from '../helper-client/client';\nexport const c = HelperClient;\n",
    );
    write('src/engine/render/text.ts', 'export const renderText = 1;\n');
    write(
      'src/engine/features/clicks.ts',
      "import { renderText } from '../render/text';\nexport const t = renderText;\n",
    );
    write('src/engine/b.ts', "import { a } from './a';\nexport const b = () => a;\n");
    const { found } = await violations(fixture);
    expect(found).toContain('engine-below-policy: src/engine/kernel/kernel.ts → src/tools/types.ts');
    expect(found.some((v) => v.startsWith('no-circular: src/engine/a.ts'))).toBe(true);
    expect(found).toContain('tools-through-the-engine: src/tools/session.ts → src/helper-client/client.ts');
    expect(found).toContain('engine-features: src/engine/features/clicks.ts → src/engine/render/text.ts');
  });

  it('finds none in src, having followed its imports', async () => {
    const { found, dependencies } = await violations(process.cwd(), 'tsconfig.json');
    expect(found).toEqual([]);
    expect(dependencies).toBeGreaterThan(500);
  });
});
