/** A stopped recording's "Left out" lines read as a count of presses and why each made no step. */
import { expect, test } from 'vitest';
import type { RecordingResult } from '../../../../src/engine/kernel/results.js';
import { renderText } from '../../../../src/engine/render/text.js';

test('each "Left out" line reads as a sentence after its count', () => {
  const result: RecordingResult = {
    kind: 'recording',
    state: 'stopped',
    events: 5,
    elapsedMs: 2000,
    steps: [],
    leftOut: { 'of keys macpilot has no name for': 2, 'on no element of the recorded app': 1 },
  };
  const text = renderText(result);
  expect(text).toContain(
    'Left out:\n- 2 presses of keys macpilot has no name for\n- 1 press on no element of the recorded app',
  );
});
