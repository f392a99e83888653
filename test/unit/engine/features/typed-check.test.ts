/** What type_text says the field lacks of the text typed, or that the app made something else of it. */
import { expect, it } from 'vitest';
import { missingFrom } from '../../../../src/engine/features/input.js';

const missing = (shown: string, typed: string) => missingFrom(shown, [...typed]);

it('names the characters a field left out', () => {
  expect(missing('4', '4=')).toEqual(['=']);
  expect(missing(' ', ' ✓')).toEqual(['✓']);
  expect(missing('hello wrld', 'hello world')).toEqual(['o']);
});

it('names a character the field shows otherwise, and none of those it shows', () => {
  expect(missing('5×5', '5*5')).toEqual(['*']);
  expect(missing('12×34', '12*34')).toEqual(['*']);
});

it('takes a result for something else the app made of the text', () => {
  expect(missing('42', '6*7=')).toBeUndefined();
  expect(missing('408', '12*34=')).toBeUndefined();
  // All there: nothing is missing.
  expect(missing('abc', 'abc')).toBeUndefined();
});

it('compares long texts from their ends', () => {
  const long = 'x'.repeat(1000);
  expect(missing(long.slice(1), long)).toEqual(['x']);
});
