/**
 * The CLI's words: every kind of result the CLI prints, rendered with the person's vocabulary, names elements by
 * path and what to do next by command and flag, never by ref, tool or tool argument; and the commands and flags
 * that vocabulary names exist.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../../src/cli/commands.js';
import { createEngine } from '../../../../src/engine/index.js';
import type { EngineResult } from '../../../../src/engine/kernel/results.js';
import { renderText } from '../../../../src/engine/render/text.js';
import { AGENT, PERSON } from '../../../../src/engine/render/vocabulary.js';
import { allTools } from '../../../../src/tools/index.js';
import { FakeHelper } from '../fake-helper.js';
import { mousepad } from '../fixtures.js';
import { samples } from './samples.js';

/** The result kinds of the tools the CLI's commands call. */
const CLI_KINDS = [
  'action',
  'snapshot',
  'matches',
  'element',
  'located',
  'apps',
  'windows',
  'clipboard',
  'menu',
  'menu-item',
  'wait',
  'text-match',
] as const;

/** The tools' names, but those that are also a command's (click) or an element's action. */
const TOOL_NAMES = allTools.map((tool) => tool.name).filter((name) => !COMMANDS.some((c) => c.name === name));
/** The tools' argument names an agent reads: those a person would not take for English words. */
const ARGUMENT_NAMES = [
  ...new Set(
    allTools.flatMap((tool) => {
      const shape = (tool.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      return Object.keys(shape).filter((name) => name.includes('_') || name === 'ref');
    }),
  ),
];

/** What in `text` is an agent's word: a ref, a tool's name or one of its arguments. */
function agentWords(text: string): string[] {
  const words = new Set(text.match(/[A-Za-z_]+\d*/g) ?? []);
  return [
    ...(text.match(/\be\d+\b|\[ref=/g) ?? []),
    ...TOOL_NAMES.filter((name) => words.has(name)),
    ...ARGUMENT_NAMES.filter((name) => words.has(name)),
  ];
}

/** Results as the engine makes them, with the cuts, hints and lists the samples lack. */
async function engineResults(): Promise<[string, EngineResult][]> {
  const root = mousepad();
  const editor = root.children?.[0]?.children?.[0]?.children?.[1]?.children?.[0]?.children?.[0];
  if (editor) editor.value = 'x'.repeat(5000);
  const helper = new FakeHelper([{ pid: 4242, name: 'mousepad', active: true, root }]);
  const bounds = { x: 0, y: 0, width: 10, height: 10 };
  helper.windows = [
    { id: '1', pid: 4242, app: 'mousepad', title: 'Untitled', bounds, minimized: false, focused: true },
  ];
  helper.actions.set('ok', ['click']);
  const engine = createEngine(helper, { settleMs: 0, pollMs: 0 });
  return [
    [
      'a click, named in passing',
      await engine.elements.click({ path: 'app("mousepad")/dialog/button["OK"]' }),
    ],
    ['a tree cut at its line cap', await engine.elements.snapshot({ app: 'mousepad', maxNodes: 3 })],
    ['a tree cut at its depth', await engine.elements.snapshot({ app: 'mousepad', depth: 2 })],
    ['a search with no match on screen', await engine.elements.find({ text: 'nothing like it' })],
    ['a search with many matches', await engine.elements.find({ role: 'menuitem', maxResults: 1 })],
    ['windows without the minimized', await engine.windows.list({})],
    [
      'a clipboard text cut',
      { kind: 'clipboard', text: 'x'.repeat(10), chars: 30_000, maxChars: 10, types: ['UTF8_STRING'] },
    ],
  ];
}

describe("the person's vocabulary", () => {
  it.each(CLI_KINDS)('renders a %s result with paths, commands and flags only', (kind) => {
    // The CLI waits for an element by its path.
    const sample =
      kind === 'wait'
        ? { ...samples.wait, awaited: 'the element at app("x")/button to appear' }
        : samples[kind];
    const text = renderText(sample as EngineResult, PERSON);
    expect(agentWords(text), text).toEqual([]);
  });

  it('a search that finds nothing points to the text on screen, where it can be read', () => {
    const none = { ...samples.matches, found: [], screenText: true };
    expect(renderText(none, AGENT)).toMatch(
      /\nWhat an app draws without elements \(a file manager's icon view, a canvas\) is not searched: find_text reads the text on screen\.$/,
    );
    const person = renderText(none, PERSON);
    expect(person).toContain('is not searched: `macpilot screenshot` shows it.');
    expect(agentWords(person), person).toEqual([]);
    // Without find_text offered, the answer does not point to it.
    expect(renderText({ ...none, screenText: false }, AGENT)).not.toContain('find_text');
  });

  it("says what a snapshot's UI reading recognised in words, each path on a line of its own", () => {
    const text = renderText(samples.snapshot, PERSON);
    expect(text).toContain(
      `UI: file save dialog\n  save: ${samples.snapshot.tree.path}\nUI state: modal dialog`,
    );
    expect(renderText(samples.snapshot, AGENT)).toContain(
      'UI: file_save_dialog (save e1); state: modal_dialog',
    );
  });

  it('renders the cuts, hints and lists of real results with paths, commands and flags only', async () => {
    for (const [what, result] of await engineResults()) {
      const text = renderText(result, PERSON);
      expect(agentWords(text), `${what}:\n${text}`).toEqual([]);
      // The same result in the agent's words does name refs, tools or arguments: the check can fail.
      expect(agentWords(renderText(result, AGENT)).length, what).toBeGreaterThan(0);
    }
  });

  it('fills its hints with the command line to run, quoted for the shell, not placeholders', () => {
    const editor = { ref: 'e1', path: 'app("Mouse pad")/window[0]/textbox' };
    const both = { depth: true, size: true };
    expect(PERSON.readMore(editor, both)).toMatch(/^`macpilot tree 'Mouse pad' --depth N` or `--all`/);
    // --all lifts the line cap, not the depth: a cut by depth alone does not suggest it.
    expect(PERSON.readMore(editor, { depth: true, size: false })).not.toContain('--all');
    expect(PERSON.readMore(editor, { depth: false, size: true })).toMatch(
      /^`--all`, or `macpilot find <text> --app 'Mouse pad'` to search$/,
    );
    // --all given already and still cut: searching is what is left, never an empty suggestion.
    expect(PERSON.readMore(editor, { depth: false, size: true, all: true })).toBe(
      "`macpilot find <text> --app 'Mouse pad' --all` to search",
    );
    expect(PERSON.readValue(editor)).toBe(
      `\`macpilot get 'app("Mouse pad")/window[0]/textbox'\` shows it all`,
    );
    expect(PERSON.readTree({ ref: 'e2', path: 'app(1118)/dialog' })).toBe(
      '`macpilot tree 1118` shows the whole tree',
    );
    expect(PERSON.readMore(undefined, both)).toMatch(/^`macpilot tree <app> --depth N`/);
  });

  it('names only commands and flags the CLI has', () => {
    const phrases = Object.values(PERSON).filter((value): value is string => typeof value === 'string');
    phrases.push(PERSON.readMore(undefined, { depth: true, size: true }), PERSON.lineCap(5));
    const commands = new Map(COMMANDS.map((c) => [c.name, c]));
    for (const phrase of phrases) {
      for (const [, name] of phrase.matchAll(/`macpilot (\w+)/g))
        expect(commands.has(name ?? ''), phrase).toBe(true);
      for (const [, flag] of phrase.matchAll(/(?:^|[\s`(])--(\w+)/g)) {
        const known = COMMANDS.some((c) => (c.options ?? []).some((o) => o.name === flag));
        expect(known, `--${flag} in "${phrase}"`).toBe(true);
      }
    }
  });
});

describe('a wait answered after its time limit', () => {
  it('says the look that saw it began in time and the app answered it slowly', () => {
    const wait = samples.wait as Extract<EngineResult, { kind: 'wait' }>;
    expect(renderText({ ...wait, elapsedMs: 796, timeoutMs: 500 }, PERSON)).toMatch(
      /^Done after 796 ms \(the look that saw it began within the 500 ms allowed; the app answered it slowly\): /,
    );
    expect(renderText({ ...wait, elapsedMs: 120, timeoutMs: 500 }, PERSON)).toMatch(/^Done after 120 ms: /);
  });
});
