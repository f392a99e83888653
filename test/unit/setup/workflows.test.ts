/**
 * What the GitHub workflows promise, read from the files: the macOS one grants the helper the four permissions
 * before it runs the whole macOS suite (and which suites those are); the release one keeps its secrets in secrets,
 * publishes with provenance and can run dry.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Workflow {
  jobs: Record<string, { steps: Step[]; permissions?: Record<string, string>; needs?: string }>;
}
const workflow = (name: string) => parse(read(`.github/workflows/${name}`)) as Workflow;
const runs = (steps: Step[]) => steps.map((step) => step.run ?? '');
const index = (steps: Step[], pattern: RegExp) => runs(steps).findIndex((run) => pattern.test(run));

describe('the macOS workflow', () => {
  const { steps } = workflow('macos.yml').jobs.suite ?? { steps: [] };

  test('builds the helper, grants it the four permissions, then runs npm run test:macos on that build', () => {
    const build = index(steps, /^scripts\/build-macos-helper\.sh$/);
    const grant = index(
      steps,
      /^scripts\/macos-grant-tcc\.sh "\$GITHUB_WORKSPACE\/build\/macos\/macpilot Helper\.app"$/,
    );
    const suite = index(steps, /^npm run test:macos -- --no-build$/);
    expect(build).toBeGreaterThan(-1);
    expect(grant).toBeGreaterThan(build);
    expect(suite).toBeGreaterThan(grant);
    const script = read('scripts/macos-grant-tcc.sh');
    for (const service of [
      'kTCCServiceAccessibility',
      'kTCCServiceScreenCapture',
      'kTCCServicePostEvent',
      'kTCCServiceListenEvent',
    ]) {
      expect(script).toContain(service);
    }
  });

  test("npm run test:macos runs vitest's macos project, which holds every file of test/macos, and fails on a missing grant in CI", () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['test:macos']).toBe('scripts/test-macos.sh');
    const script = read('scripts/test-macos.sh');
    expect(script).toMatch(/^npx vitest run --project macos /m);
    expect(script).toContain('if [ -n "${CI:-}" ] || [ ! -t 0 ]; then');
    expect(read('vitest.config.ts')).toContain("include: ['test/macos/**/*.test.ts']");
    // The suites the workflow runs: every test file under test/macos.
    const suites = readdirSync(join(ROOT, 'test', 'macos')).filter((name) => name.endsWith('.test.ts'));
    expect(suites).toEqual(expect.arrayContaining(['helper.test.ts', 'scenarios.test.ts']));
    // The scenarios it runs are the ones the Linux suite runs (test/e2e/scenarios.test.ts), with a Mac's apps.
    const scenarios = (file: string) => [...read(file).matchAll(/(\w+Scenario)\(/g)].map((match) => match[1]);
    expect(scenarios('test/macos/scenarios.test.ts')).toEqual(scenarios('test/e2e/scenarios.test.ts'));
    expect(scenarios('test/macos/scenarios.test.ts')).toEqual([
      'editorScenario',
      'calculatorScenario',
      'sessionScenario',
    ]);
    console.info(`the macOS workflow runs: ${suites.map((name) => `test/macos/${name}`).join(', ')}`);
  });
});

describe('the release workflow', () => {
  const { jobs } = workflow('release.yml');
  const text = read('.github/workflows/release.yml');

  test('signs and notarizes on a Mac with secrets only, then publishes with provenance after the helper job', () => {
    const helper = jobs.helper?.steps ?? [];
    expect(runs(helper)).toContain('scripts/release-macos-helper.sh');
    const signing = helper.find((step) => step.run === 'scripts/release-macos-helper.sh');
    for (const [name, value] of Object.entries(signing?.env ?? {})) {
      expect(value, name).toBe(`\${{ secrets.${name} }}`);
    }
    expect(Object.keys(signing?.env ?? {})).toEqual(
      expect.arrayContaining([
        'MACPILOT_SIGN_IDENTITY',
        'MACPILOT_NOTARY_APPLE_ID',
        'MACPILOT_NOTARY_PASSWORD',
      ]),
    );
    const publish = jobs.publish;
    expect(publish?.needs).toBe('helper');
    expect(publish?.permissions).toMatchObject({ 'id-token': 'write', contents: 'write' });
    expect(runs(publish?.steps ?? []).join('\n')).toContain('npm run release -- --dry-run');
    expect(read('scripts/release.ts')).toContain("'--provenance'");
    // No credential is written into the workflow: every token comes from secrets or the job's own.
    expect(text).not.toMatch(/(npm_|ghp_|github_pat_)[A-Za-z0-9]{10,}/);
    expect(text.match(/\$\{\{ secrets\.\w+ \}\}/g)?.length).toBeGreaterThanOrEqual(7);
  });
});
