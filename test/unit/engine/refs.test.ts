import { describe, expect, it } from 'vitest';
import { RefTable } from '../../../src/engine/refs.js';

const app = { pid: 7, name: 'mousepad' };
const seen = (label: string) => ({ path: `app("mousepad")/${label}`, app, label });

describe('RefTable', () => {
  it('gives a handle the same ref every time and new handles new refs', () => {
    const refs = new RefTable();
    const a = refs.issue('h:a', seen('button "A"')).ref;
    const b = refs.issue('h:b', seen('button "B"')).ref;
    expect([a, b]).toEqual(['e1', 'e2']);
    expect(refs.issue('h:a', seen('button "A2"')).ref).toBe('e1');
    expect(refs.get('e1')?.label).toBe('button "A2"');
    expect(refs.refOf('h:b')).toBe('e2');
  });

  it('re-points a ref to a new handle, keeping the ref', () => {
    const refs = new RefTable();
    refs.issue('h:old', seen('button "OK"'));
    const entry = refs.repoint('e1', 'h:new');
    expect(entry.handle).toBe('h:new');
    expect(refs.refOf('h:new')).toBe('e1');
    expect(refs.refOf('h:old')).toBeUndefined();
    expect(refs.issue('h:new', seen('button "OK"')).ref).toBe('e1');
  });

  it('keeps the ref a handle already had when another ref is re-pointed to it', () => {
    const refs = new RefTable();
    refs.issue('h:1', seen('a'));
    refs.issue('h:2', seen('b'));
    refs.repoint('e1', 'h:2');
    expect(refs.refOf('h:2')).toBe('e2');
    expect(refs.get('e1')?.handle).toBe('h:2');
  });

  it('knows nothing of refs it never issued', () => {
    expect(new RefTable().get('e99')).toBeUndefined();
  });
});
