import { describe, expect, it } from 'vitest';
import { workflowText } from '../../../../src/engine/render/workflow.js';

describe('a workflow summary', () => {
  it('says why a step failed and what to do next, under its line; a step done, in its first line', () => {
    const text = workflowText({
      success: false,
      error: 'step 1 (list_apps) failed: list_apps was not run: its arguments do not fit it.',
      stepsCompleted: 1,
      stepsTotal: 2,
      steps: [
        { step: 0, tool: 'find_elements', status: 'ok', attempts: 1, text: '1 match in "x":\n- button "OK"' },
        {
          step: 1,
          tool: 'list_apps',
          status: 'failed',
          attempts: 1,
          text: 'list_apps was not run: its arguments do not fit it.\nWhy: list_apps takes no argument "bogus"; it takes none\nNext: call it again without them',
        },
      ],
      rolledBack: [],
    });
    expect(text.split('\n').slice(1)).toEqual([
      // A heading's colon goes: the line says more follows in the step's result.
      '0. find_elements: ok - 1 match in "x" …',
      '1. list_apps: failed - list_apps was not run: its arguments do not fit it.',
      '   Why: list_apps takes no argument "bogus"; it takes none',
      '   Next: call it again without them',
    ]);
  });
});
