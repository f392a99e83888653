import { describe, expect, it } from 'vitest';
import { compileTest, findMatches, matchedByDescriptionAlone } from '../../../../src/engine/reading/find.js';
import { renderMatches } from '../../../../src/engine/render/text.js';
import { RefTable } from '../../../../src/engine/kernel/refs.js';
import { annotate } from '../../../../src/engine/kernel/tree.js';
import { MacpilotError } from '../../../../src/errors.js';
import { el } from '../fixtures.js';

describe('compileTest', () => {
  it('contains is case-insensitive and normalizes whitespace and dots', () => {
    const test = compileTest('save as…', 'contains');
    expect(test('File: Save As...   ')).toBe(true);
    expect(test('Save')).toBe(false);
  });

  it('exact compares normalized text, case included', () => {
    expect(compileTest('Save As…', 'exact')('  Save As...  ')).toBe(true);
    expect(compileTest('save as…', 'exact')('Save As...')).toBe(false);
  });

  it('regex is case-insensitive over normalized text', () => {
    expect(compileTest('^save as\\.\\.\\.$', 'regex')('Save As...     ')).toBe(true);
  });

  it.each(['(a+)+', '(\\w*\\s?)*x', '(a|b+){2,}'])('refuses the catastrophic pattern %s', (pattern) => {
    expect(() => compileTest(pattern, 'regex')).toThrow(MacpilotError);
  });

  it('refuses very long patterns and invalid ones', () => {
    expect(() => compileTest('a'.repeat(501), 'regex')).toThrow(/longer than 500/);
    expect(() => compileTest('[', 'regex')).toThrow(MacpilotError);
  });
});

describe('findMatches', () => {
  const tree = () =>
    annotate(
      {
        node: el('application', 'a', {}, [
          el('push button', 'Save', { states: ['offscreen'] }),
          el('push button', 'Save all', { identifier: 'save-all' }),
          el('label', 'Status', { description: 'saves automatically' }),
          el('text', 'Amount', { value: 42 }),
        ]),
        path: { app: 'a', segments: [] },
        app: { pid: 1, name: 'a' },
      },
      new RefTable(),
    );

  it('ranks visible elements before offscreen ones', () => {
    expect(findMatches(tree(), { text: 'save', match: 'contains' }).map((n) => n.info.name)).toEqual([
      'Save all',
      'Status',
      'Save',
    ]);
  });

  it('matches role, identifier and numeric values', () => {
    expect(findMatches(tree(), { role: 'button', identifier: 'save-all', match: 'exact' })).toHaveLength(1);
    expect(findMatches(tree(), { value: '42', match: 'exact' }).map((n) => n.role)).toEqual(['textbox']);
  });

  it('a match found by its description alone shows the description on its line', () => {
    const query = { text: 'automatically', match: 'contains' as const };
    const found = findMatches(tree(), query);
    const byDescription = found.filter((n) => matchedByDescriptionAlone(n, query));
    expect(byDescription.map((n) => n.info.name)).toEqual(['Status']);
    expect(renderMatches(found, 5, undefined, byDescription)).toBe(
      '- text "Status" [ref=e4] description="saves automatically"',
    );
    // Found by its name as well: the line is as usual.
    const byName = { text: 'status', match: 'contains' as const };
    expect(findMatches(tree(), byName).filter((n) => matchedByDescriptionAlone(n, byName))).toEqual([]);
  });

  it('renders lines and a count of the rest', () => {
    const found = findMatches(tree(), { role: 'button', match: 'contains' });
    expect(renderMatches(found, 1)).toBe(
      '- button "Save all" [ref=e3]\n[1 more element matched; raise max_results or narrow the query to see them]',
    );
  });
});
