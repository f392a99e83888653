import { describe, expect, it } from 'vitest';
import { fillReferences, referencedSteps, TemplateError } from '../../../src/tools/workflow-steps.js';

const results = [{ text: 'hello', count: 3, matches: [{ ref: 'e7', name: 'OK' }] }, undefined];

describe('{{step_N.field}} references', () => {
  it('take a field of an earlier result: whole strings keep its type, longer strings get it written in', () => {
    expect(fillReferences({ n: '{{step_0.count}}', ref: '{{ step_0.matches.0.ref }}' }, results, 2)).toEqual({
      n: 3,
      ref: 'e7',
    });
    expect(fillReferences({ text: 'said {{step_0.text}} {{step_0.count}} times' }, results, 1)).toEqual({
      text: 'said hello 3 times',
    });
    expect(fillReferences(['{{step_0.matches}}', 4, null], results, 1)).toEqual([
      [{ ref: 'e7', name: 'OK' }],
      4,
      null,
    ]);
  });

  it('fail, naming what is there, for a missing field, a step with no result, or a step that does not come first', () => {
    expect(() => fillReferences('{{step_0.nope}}', results, 1)).toThrow(
      'step_0 has no field "nope" (it has: text, count, matches)',
    );
    expect(() => fillReferences('{{step_0.matches.3.ref}}', results, 1)).toThrow(
      'step_0.matches has no field "3"',
    );
    expect(() => fillReferences('{{step_1.text}}', results, 2)).toThrow(
      'step 1 has no structured result to read',
    );
    expect(() => fillReferences('{{step_1.text}}', results, 1)).toThrow('step 1 does not come before step 1');
    expect(() => fillReferences('{{step_0.text}}', results, 0)).toThrow(TemplateError);
  });

  it('leave everything else alone: no expressions, no code', () => {
    expect(fillReferences({ a: '{{1+1}}', b: '{{step_0.text | upper}}', c: 'plain' }, results, 1)).toEqual({
      a: '{{1+1}}',
      b: '{{step_0.text | upper}}',
      c: 'plain',
    });
  });

  it('are found for a dry run', () => {
    expect(referencedSteps({ a: '{{step_2.x}}', b: ['{{step_0.y}} and {{step_5.z.w}}'] })).toEqual([2, 0, 5]);
    expect(referencedSteps(undefined)).toEqual([]);
  });
});
