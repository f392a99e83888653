/**
 * The untrusted-data fence, from both ends: every kind of engine result whose app text says "ignore previous
 * instructions" renders with the fence, and the engine's own sentences (Words) carry app text only in the parts
 * marked as the app's, so render/ is the one place that decides how it reads and where the fence goes.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import type { EngineResult } from '../../../../src/engine/kernel/results.js';
import { type Words } from '../../../../src/engine/kernel/words.js';
import { renderText } from '../../../../src/engine/render/text.js';
import { undoText, workflowText } from '../../../../src/engine/render/workflow.js';
import { DATA_FENCE } from '../../../../src/untrusted.js';
import { FakeHelper } from '../fake-helper.js';
import { el } from '../fixtures.js';
import { INJECTION, samples } from './samples.js';

describe('the untrusted-data fence', () => {
  it.each(Object.entries(samples))('fences the app text of a %s result', (_kind, result) => {
    const text = renderText(result as EngineResult);
    expect(text).toContain(INJECTION);
    expect(text).toContain(DATA_FENCE);
  });

  it('fences a workflow summary and an undo, whose lines quote other answers', () => {
    const workflow = workflowText({
      success: true,
      stepsCompleted: 1,
      stepsTotal: 1,
      steps: [{ step: 0, tool: 'click_element', status: 'ok', attempts: 1, text: INJECTION }],
      rolledBack: [],
    });
    const undo = undoText({
      asked: 1,
      taken: 1,
      undone: [{ seq: 1, tool: 'set_value', what: INJECTION }],
      notUndone: [],
    });
    for (const text of [workflow, undo]) {
      expect(text).toContain(INJECTION);
      expect(text).toContain(DATA_FENCE);
    }
  });
});

describe("the engine's sentences", () => {
  /** The parts of `w` that are macpilot's own words: none may hold the app's text. */
  const ownParts = (w: Words) => w.filter((part): part is string => typeof part === 'string');

  it('mark every piece of app text they carry, for render/ to fence', async () => {
    const button = el('push button', INJECTION, { id: 'b', bounds: { x: 1, y: 2, width: 30, height: 20 } });
    const field = el('text', INJECTION, { id: 'f', states: ['editable', 'focusable'] });
    const root = el('application', INJECTION, { id: 'app' }, [
      el('frame', INJECTION, { id: 'w', states: ['active'] }, [button, field]),
    ]);
    const helper = new FakeHelper([{ pid: 4242, name: INJECTION, active: true, root }]);
    helper.actions.set('b', ['click', INJECTION]);
    const engine = createEngine(helper, { settleMs: 0, pollMs: 0 });
    const path = (role: string) => ({ path: `app("${INJECTION}")/window["${INJECTION}"]/${role}` });
    const results = [
      await engine.elements.click(path('button')),
      await engine.elements.perform(path('button'), INJECTION),
      await engine.elements.setValue(path('textbox'), 'x'),
      await engine.elements.focus(path('textbox')),
      await engine.input.click({ x: 1, y: 2, label: [{ appText: INJECTION }] }),
    ];
    const wait = await engine.waits.waitFor({ condition: 'appears', app: INJECTION, name: INJECTION });
    const sentences = [...results.map((r) => r.done), wait.seen];
    for (const sentence of sentences) {
      expect(JSON.stringify(sentence)).toContain(INJECTION);
      for (const part of ownParts(sentence)) expect(part).not.toContain(INJECTION);
    }
    for (const result of [...results, wait]) expect(renderText(result)).toContain(DATA_FENCE);
  });
});
