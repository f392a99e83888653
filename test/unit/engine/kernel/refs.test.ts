import { describe, expect, it } from 'vitest';
import { RefTable } from '../../../../src/engine/kernel/refs.js';

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

describe('RefTable over a long session', () => {
  it('lets the least recently seen refs go of their handles, keeping their paths, then forgets the oldest', () => {
    const refs = new RefTable({ live: 2, retired: 2 });
    for (const h of ['a', 'b', 'c']) refs.issue(`h:${h}`, seen(h));
    refs.issue('h:a', seen('a')); // seen again: now the most recent
    refs.issue('h:d', seen('d'));
    expect(refs.get('e1')?.handle).toBe('h:a');
    expect(refs.get('e2')).toBeUndefined();
    expect(refs.retired('e2')).toEqual(seen('b'));
    expect(refs.refOf('h:b')).toBeUndefined();
    expect(refs.known('e3')?.label).toBe('c');

    refs.issue('h:e', seen('e'));
    refs.issue('h:f', seen('f'));
    expect(refs.known('e2')).toBeUndefined();
    expect(refs.issued('e2')).toBe(true);
    expect(refs.issued('e99')).toBe(false);
  });

  it('brings a retired ref back to life on a new handle, under its own name', () => {
    const refs = new RefTable({ live: 1, retired: 5 });
    refs.issue('h:a', seen('a'));
    refs.issue('h:b', seen('b'));
    expect(refs.get('e1')).toBeUndefined();
    const revived = refs.repoint('e1', 'h:a2');
    expect(revived).toMatchObject({ ref: 'e1', handle: 'h:a2', label: 'a' });
    expect(refs.get('e1')).toBe(revived);
    expect(refs.retired('e1')).toBeUndefined();
    expect(refs.get('e2')).toBeUndefined();
  });
});
