/** What each command line becomes: the tool calls it makes, its usage errors, its text with paths for refs. */
import { describe, expect, it } from 'vitest';
import { completion } from '../../../src/cli/completion.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { withPaths } from '../../../src/cli/paths-text.js';
import { type Call, type Invocation, pathInJson, TOOL_COMMANDS } from '../../../src/cli/tool-commands.js';
import { UsageError } from '../../../src/cli/usage-error.js';
import type { ToolAnswer } from '../../../src/tools/call.js';

const OK = 'app("zenity")/dialog/button["OK"]';

/** Runs a command against tools that answer `answers[tool]` (structuredContent), recording the calls. */
async function calls(
  name: string,
  invocation: Partial<Invocation>,
  answers: Record<string, Record<string, unknown>> = {},
  failing: readonly string[] = [],
) {
  const made: [string, Record<string, unknown>][] = [];
  const call: Call = async (tool, args) => {
    made.push([tool, Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined))]);
    const answer: ToolAnswer = {
      result: { content: [], structuredContent: answers[tool], isError: failing.includes(tool) || undefined },
    };
    return answer;
  };
  const command = TOOL_COMMANDS[name];
  if (!command) throw new Error(`no command ${name}`);
  await command({ positionals: [], values: {}, ...invocation }, call);
  return made;
}

describe('tool commands', () => {
  it('click takes a path (click_element) or a point x,y (click)', async () => {
    expect(await calls('click', { positionals: [OK] })).toEqual([['click_element', { path: OK }]]);
    expect(await calls('click', { positionals: ['640,-4.5'], values: { double: true } })).toEqual([
      ['click', { x: 640, y: -4.5, count: 2 }],
    ]);
  });

  it('type --into types into the element at the path, in one call', async () => {
    const made = await calls('type', { positionals: ['Hi'], values: { into: OK, submit: true } }, {});
    expect(made).toEqual([['type_text', { text: 'Hi', path: OK, submit: true }]]);
  });

  it('set of a path that leads nowhere still calls set_value, which fails as the write it was', async () => {
    const made = await calls('set', { positionals: [OK, 'on'] }, {}, ['get_element', 'set_value']);
    expect(made).toEqual([
      ['get_element', { path: OK }],
      ['set_value', { path: OK, value: 'on' }],
    ]);
  });

  it('set reads the value as the element holds it: a toggle, a number, text', async () => {
    const set = async (current: unknown, given: string) =>
      (await calls('set', { positionals: [OK, given] }, { get_element: { value: current } }))[1]?.[1].value;
    expect(await set(false, 'true')).toBe(true);
    expect(await set(3, '7.5')).toBe(7.5);
    expect(await set('old', '42')).toBe('42');
    await expect(set(true, 'yes')).rejects.toBeInstanceOf(UsageError);
  });

  it('screenshot takes one of --app, --window, --region and --display', async () => {
    await expect(calls('screenshot', { values: { app: 'mousepad', window: '42' } })).rejects.toThrow(
      'screenshot takes one of --app, --window, --region and --display, not --app and --window',
    );
  });

  it('screenshot: --region as a region, -o as an absolute file', async () => {
    const [[tool, args] = []] = await calls('screenshot', {
      values: { region: '0,0,640,400', output: 'shot.png' },
    });
    expect(tool).toBe('take_screenshot');
    expect(args).toMatchObject({ region: { x: 0, y: 0, width: 640, height: 400 } });
    expect(String(args?.file_path)).toMatch(/^\/.*\/shot\.png$/);
  });

  it('tree --all shows hidden elements and more lines, --depth 3 is the depth of snapshot_ui (the levels shown); clipboard and menu pick their tool', async () => {
    expect(await calls('tree', { positionals: ['mousepad'], values: { all: true, depth: '3' } })).toEqual([
      ['snapshot_ui', { app: 'mousepad', depth: 3, include_hidden: true, max_nodes: 5000 }],
    ]);
    expect(await calls('clipboard', { positionals: ['set', 'x'] })).toEqual([
      ['set_clipboard', { text: 'x' }],
    ]);
    expect(await calls('clipboard', {})).toEqual([['get_clipboard', {}]]);
    expect(await calls('menu', { positionals: ['mousepad', 'File > Save As…'] })).toEqual([
      ['click_menu_item', { app: 'mousepad', path: 'File > Save As…' }],
    ]);
    expect(await calls('menu', { positionals: ['mousepad'], values: { list: true } })).toEqual([
      ['list_menu_items', { app: 'mousepad' }],
    ]);
  });

  it('an app may be given as the path tree prints for it: app(pid) or app("name"), never an element\'s path', async () => {
    expect(await calls('tree', { positionals: ['app(4580)'] })).toEqual([['snapshot_ui', { app: '4580' }]]);
    expect(await calls('windows', { positionals: ['app("mousepad")'] })).toEqual([
      ['list_windows', { app: 'mousepad' }],
    ]);
    expect(await calls('find', { positionals: ['OK'], values: { app: 'app(77)' } })).toEqual([
      ['find_elements', { text: 'OK', app: '77' }],
    ]);
    expect(await calls('menu', { positionals: ['app(12)'], values: { list: true } })).toEqual([
      ['list_menu_items', { app: '12' }],
    ]);
    await expect(calls('tree', { positionals: [OK] })).rejects.toThrow(
      /is the path of an element in an app; give the app alone \(app\("zenity"\), its name or its pid\)/,
    );
    await expect(calls('tree', { positionals: ['app(zenity'] })).rejects.toThrow(UsageError);
  });

  it('refuses what the command line gets wrong before any tool runs', async () => {
    for (const [name, invocation] of [
      ['get', { positionals: ['mousepad/window'] }],
      ['click', { positionals: ['app("x")/button["unclosed'] }],
      ['tree', { values: { depth: 'deep' } }],
      ['screenshot', { values: { region: '1,2,3' } }],
      ['clipboard', { positionals: ['paste'] }],
      ['menu', { positionals: ['mousepad'] }],
      // Only get reads a path from a pipe.
      ['set', { positionals: ['-', 'x'] }],
      ['clipboard', { positionals: ['set', ''] }],
    ] as const) {
      await expect(calls(name, invocation as Partial<Invocation>), name).rejects.toBeInstanceOf(UsageError);
    }
  });
});

describe('text with paths for refs', () => {
  const refs = {
    known: (ref: string) =>
      ref === 'e3' ? { path: OK, app: { name: 'zenity', pid: 1 }, label: '' } : undefined,
  };

  it('names elements by their paths where the tools show refs', () => {
    expect(withPaths('- button "OK" [ref=e3] focused', refs)).toBe(`- button "OK" at ${OK} focused`);
    expect(withPaths('ref: e3\npath: x\nrole: button', refs)).toBe('path: x\nrole: button');
    expect(withPaths('snapshot_ui with ref=e3 for a subtree', refs)).toBe(
      `snapshot_ui with path=${OK} for a subtree`,
    );
  });

  it('leaves a ref it does not know as it is', () => {
    expect(withPaths('- button [ref=e9]', refs)).toBe('- button [ref=e9]');
  });
});

describe('completion scripts', () => {
  it('offer every command and every option in each shell', () => {
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const script = completion(shell);
      for (const command of COMMANDS) {
        expect(script, `${shell}: ${command.name}`).toContain(command.name);
        for (const option of command.options)
          expect(script, `${shell}: --${option.name}`).toContain(option.name);
      }
    }
  });
});

describe('get -', () => {
  it("takes the path of an element's JSON, or of a search's only match", () => {
    expect(pathInJson(JSON.stringify({ ref: 'e1', path: OK }))).toBe(OK);
    expect(pathInJson(JSON.stringify({ scope: 'x', matches: [{ path: OK }], total: 1 }))).toBe(OK);
    // A menu listed with one item (`menu <app> "File > Open Recent" --list --format json`).
    expect(pathInJson(JSON.stringify({ app: 'x', menu: 'File', items: [{ path: OK }], cut: false }))).toBe(
      OK,
    );
  });

  it('takes the element a wait saw and the target of an action', () => {
    const wait = { awaited: 'the button', elapsed_ms: 40, element: { ref: 'e3', path: OK } };
    expect(pathInJson(JSON.stringify(wait))).toBe(OK);
    const click = { done: 'Clicked', target: { ref: 'e3', label: 'button "OK"', path: OK }, changes: [] };
    expect(pathInJson(JSON.stringify(click))).toBe(OK);
  });

  it('refuses several matches with their paths, no element, and what is not JSON', () => {
    const two = JSON.stringify({ matches: [{ path: OK }, { path: `${OK}[1]` }] });
    expect(() => pathInJson(two)).toThrow(`2 elements; get takes one of their paths: ${OK}; ${OK}[1]`);
    expect(() => pathInJson('{"matches": []}')).toThrow('the JSON on stdin lists no element (0 matches)');
    expect(() => pathInJson('{"text": "Saved"}')).toThrow(
      'names no element (it has no path, element, target, matches or items)',
    );
    expect(() => pathInJson('button "OK"')).toThrow(
      'stdin is not JSON (it begins "button \\"OK\\""): give that command --format json',
    );
    expect(() => pathInJson(' \n')).toThrow(
      "stdin was empty: pipe in another command's answer, as in: macpilot find OK --format json | macpilot get -",
    );
  });
});

describe("a command line's values that do not fit the tool", () => {
  it("are named in the command's words, not the tool's", async () => {
    const { z } = await import('zod');
    const { argumentProblems } = await import('../../../src/cli/tool-commands.js');
    const schema = z.object({
      text: z.string().min(1),
      timeout_ms: z.number().max(300_000).optional(),
      repeat: z.number().min(1).optional(),
    });
    const find = schema.safeParse({ text: '' });
    expect(find.success || argumentProblems('find', find.error)).toBe(
      "find: the text is empty; give some of the text, or '' with --role for every element of a role",
    );
    const type = schema.safeParse({ text: '' });
    expect(type.success || argumentProblems('type', type.error)).toBe(
      "type: the text is empty; give the text to type (to empty a field: macpilot set <path> '')",
    );
    const wait = schema.safeParse({ text: '', timeout_ms: 400_000 });
    expect(wait.success || argumentProblems('wait', wait.error)).toBe(
      'wait: --text is empty\nwait: --timeout must be at most 300000',
    );
    const key = schema.safeParse({ repeat: 0 });
    expect(key.success || argumentProblems('key', key.error)).toBe(
      'key: the text is missing\nkey: --repeat must be at least 1',
    );
    const condition = z
      .object({ condition: z.enum(['appears', 'disappears']) })
      .safeParse({ condition: 'appear' });
    expect(condition.success || argumentProblems('wait', condition.error, { condition: 'appear' })).toBe(
      'wait: the condition must be one of appears, disappears (did you mean appears?)',
    );
    const { oneCaptureArea } = await import('../../../src/tools/params.js');
    const area = z
      .object({ region: z.string().optional(), app: z.string().optional() })
      .refine(...oneCaptureArea)
      .safeParse({ region: '0,0,1,1', app: 'x' });
    expect(area.success || argumentProblems('screenshot', area.error)).toBe(
      'screenshot: give at most one of --region, --display, or --app / --window',
    );
  });
});

describe('click', () => {
  it('a mistyped point is said to be one, not read as a path', async () => {
    for (const where of ['10,10,5', '10, 20'])
      await expect(calls('click', { positionals: [where] })).rejects.toThrow(
        `a point is x,y in screen points, e.g. 640,400 (no spaces), not "${where}"`,
      );
    expect(await calls('click', { positionals: ['-10,20'] })).toEqual([['click', { x: -10, y: 20 }]]);
  });
});

describe("a failure's sentence at the terminal", () => {
  it('speaks to the person as you', async () => {
    const { inPersonWords } = await import('../../../src/cli/tool-commands.js');
    expect(inPersonWords("1 window of apps the person's app lists hide may show in its pixels")).toBe(
      '1 window of apps your app lists hide may show in its pixels',
    );
    // A refusal of the clipboard: the app is hidden from agents, not from the person, who needs no one to ask.
    expect(
      inPersonWords(
        'Not read: the clipboard holds what was copied in an app hidden from you.\nNext: ask the person for what you need; the clipboard reads again once anything else is copied',
      ),
    ).toBe(
      'Not read: the clipboard holds what was copied in an app your app lists hide from agents.\nNext: the clipboard reads again once anything else is copied',
    );
    expect(inPersonWords("macpilot's console, the person's own, is painted black.")).toBe(
      "macpilot's console, your own, is painted black.",
    );
    // The person at the terminal is the one who can change the lists.
    expect(
      inPersonWords(
        "No window matches (1 window is hidden by the person's app lists; only the person can change that)",
      ),
    ).toBe('No window matches (1 window is hidden by your app lists: `macpilot apps` says by which setting)');
    expect(inPersonWords('Next: only the person can change that; work in another app')).toBe(
      'Next: you can change that in your app lists (`macpilot apps` says by which setting); work in another app',
    );
  });

  it('names commands and flags where the agent reads tools and arguments', async () => {
    const { inPersonWords } = await import('../../../src/cli/tool-commands.js');
    expect(
      inPersonWords(
        'Timed out after 5 s waiting for a button: raise timeout_ms, or take a snapshot_ui; include_hidden: true also searches hidden ones; get_element shows it',
      ),
    ).toBe(
      'Timed out after 5 s waiting for a button: raise --timeout, or take a `macpilot tree`; --all also searches hidden ones; `macpilot get` shows it',
    );
    expect(inPersonWords('set MACPILOT_MODE=full where macpilot is started, then restart macpilot')).toBe(
      'set MACPILOT_MODE=full where macpilot is started',
    );
    expect(inPersonWords('only a human can allow it: restart macpilot with --mode full')).toBe(
      'run the command again with --mode full',
    );
    // Every tool a failure sends a person to has a command, and every argument it names a flag.
    expect(inPersonWords('name one of the running apps; or launch_app it first')).toBe(
      'name one of the running apps; or `macpilot launch` it first',
    );
    expect(inPersonWords('use an id from list_displays (black_out_hidden: true paints them black)')).toBe(
      'use an id from `macpilot displays` (--black-out paints them black)',
    );
    // Tools no command calls, and advice that sends an agent to the human, in the words of the human at hand.
    expect(
      inPersonWords('or use perform_action with one of its actions; then check with get_menu_item_state'),
    ).toBe('or use `macpilot click` with one of its actions; then check with `macpilot menu <app> --list`');
    expect(
      inPersonWords(
        "only a human can allow it: set MACPILOT_MODE=safe where macpilot is started (the MCP client's server entry or your shell)",
      ),
    ).toBe('set MACPILOT_MODE=safe in your shell');
  });
});
