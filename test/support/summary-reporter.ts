/** Ends a run with one plain line, `N passed, N failed, N skipped`, that any CI log reader understands. */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = (state: 'passed' | 'failed' | 'skipped') =>
      testModules.reduce((n, m) => n + [...m.children.allTests(state)].length, 0);
    process.stdout.write(
      `\n${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`,
    );
  }
}
