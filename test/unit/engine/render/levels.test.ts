/** The CLI's --depth: the levels a person sees, whatever unnamed wrappers the walk went through. */
import { expect, it } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import { renderText } from '../../../../src/engine/render/text.js';
import { PERSON } from '../../../../src/engine/render/vocabulary.js';
import { FakeHelper } from '../fake-helper.js';
import { mousepad } from '../fixtures.js';

it('prints the app and two levels under it, through the wrappers it leaves out, and says what it cut', async () => {
  const engine = createEngine(
    new FakeHelper([{ pid: 4242, name: 'mousepad', active: true, root: mousepad() }]),
  );
  const result = await engine.elements.snapshot({ app: 'mousepad', depth: 20 });
  if (result.kind !== 'snapshot') throw new Error(result.kind);
  result.render.maxLevel = 3;
  const lines = renderText(result, PERSON).split('\n');
  const levels = lines.filter((l) => /^\s*- /.test(l)).map((l) => (l.length - l.trimStart().length) / 2);
  expect(Math.max(...levels)).toBe(2);
  // The menu bar sits under a filler the tree leaves out: it is the window's child as a person sees it.
  expect(lines.some((l) => /^ {4}- menubar/.test(l))).toBe(true);
  expect(lines.at(-1)).toMatch(
    /^\[cut: (at least )?\d+ elements below depth 2; children not shown under app\("mousepad"\)/,
  );
});
