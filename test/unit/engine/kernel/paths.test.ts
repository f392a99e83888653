import { describe, expect, it } from 'vitest';
import {
  type ElementPath,
  formatPath,
  matchSegment,
  parsePath,
  type Segment,
  segmentFor,
} from '../../../../src/engine/kernel/paths.js';
import { MacpilotError } from '../../../../src/errors.js';

const item = (nativeRole: string, name: string) => ({ nativeRole, name });

function parseError(text: string): MacpilotError {
  try {
    parsePath(text);
  } catch (error) {
    if (error instanceof MacpilotError) return error;
    throw error;
  }
  throw new Error(`parsed: ${text}`);
}

describe('formatPath / parsePath', () => {
  const path: ElementPath = {
    app: 'Mousepad',
    segments: [
      { role: 'window', index: 0 },
      { role: 'menubar' },
      { role: 'menu', name: 'File' },
      { role: 'menuitem', name: 'Save "As"…' },
      { role: 'button', name: 'OK', index: 1 },
    ],
  };

  it('round trips', () => {
    const text = formatPath(path);
    expect(text).toBe(
      'app("Mousepad")/window[0]/menubar/menu["File"]/menuitem["Save \\"As\\"…"]/button["OK"][1]',
    );
    expect(parsePath(text)).toEqual(path);
  });

  it('accepts role aliases, as people write them', () => {
    expect(parsePath('app("Mousepad")/window[0]/menu_bar/menu_item["File"]').segments).toEqual([
      { role: 'window', index: 0 },
      { role: 'menubar' },
      { role: 'menuitem', name: 'File' },
    ]);
    expect(parsePath('app("X")/AXButton["OK"]').segments).toEqual([{ role: 'button', name: 'OK' }]);
  });

  it('parses a bare app', () => {
    expect(parsePath('app("gtk3-demo")')).toEqual({ app: 'gtk3-demo', segments: [] });
  });

  it('names an app by its pid, and writes it back that way', () => {
    const byPid = parsePath('app(1118)/dialog/button["OK"]');
    expect(byPid).toEqual({
      app: '1118',
      pid: 1118,
      segments: [{ role: 'dialog' }, { role: 'button', name: 'OK' }],
    });
    expect(formatPath(byPid)).toBe('app(1118)/dialog/button["OK"]');
    expect(() => parsePath('app(0)')).toThrow(/a pid such as 1118/);
  });

  it.each([
    ['window[0]', 'at character 1', '"app("'],
    ['app(Mousepad)', 'at character 5', 'JSON string'],
    ['app("Mousepad"', 'at character 15', '")"'],
    ['app("M")/window[x]', 'at character 17', 'an index'],
    ['app("M")/window[0', 'at character 18', '"]"'],
    ['app("M")/menu["File]', 'at character 15', 'closing "'],
    ['app("M")//button', 'at character 10', 'a role'],
    ['app("M")/button[0]["OK"]', 'at character 19', '"/"'],
  ])('rejects %s saying where and what', (text, where, expected) => {
    const error = parseError(text);
    expect(error.what).toBe('Malformed path');
    expect(error.why).toContain(where);
    expect(error.why).toContain(expected);
    expect(error.next).toContain('app("Name")');
  });

  it("gives as its example a path it accepts, in the words the tree prints (mousepad's File > Save As...)", () => {
    const example = /e\.g\. (app\(.*\])\), or/.exec(parseError('app("M")/').next)?.[1] ?? '';
    expect(example).toBe('app("mousepad")/window[0]/menubar/menu["File"]/menuitem["Save As..."]');
    expect(formatPath(parsePath(example))).toBe(example);
  });

  it('tells a person whose shell took the quotes away to quote the path whole', () => {
    const error = parseError('app(mousepad)/window[0]');
    expect(error.renderForPerson()).toContain(
      `the shell took away its double quotes: put the whole path in single quotes, e.g. 'app("mousepad")/window[0]'`,
    );
    expect(parseError('app("M")/button[').renderForPerson()).toContain('copy it from what `macpilot tree`');
  });

  it('rejects an unknown role with the list of roles', () => {
    const error = parseError('app("M")/wizzbang');
    expect(error.why).toContain('at character 10');
    expect(error.why).toContain('wizzbang');
    expect(error.next).toContain('menuitem');
  });
});

describe('matchSegment', () => {
  const menu = [
    item('menu item', 'New      '),
    item('menu item', 'Save As...      '),
    item('separator', ''),
    item('menu item', 'save as...'),
    item('check menu item', 'Word Wrap'),
  ];

  it('normalizes whitespace and "…" ≡ "...", exact before case-insensitive', () => {
    expect(matchSegment(menu, { role: 'menuitem', name: 'Save As…' })).toEqual([menu[1]]);
    expect(matchSegment(menu, { role: 'menuitem', name: 'save as…' })).toEqual([menu[3]]);
    expect(matchSegment(menu, { role: 'menuitem', name: 'SAVE AS...' })).toEqual([menu[1], menu[3]]);
    expect(matchSegment(menu, { role: 'menuitem', name: 'new' })).toEqual([menu[0]]);
  });

  it('counts indexes among the siblings matching role and name', () => {
    expect(matchSegment(menu, { role: 'menuitem', index: 2 })).toEqual([menu[3]]);
    expect(matchSegment(menu, { role: 'menuitem', name: 'SAVE AS...', index: 1 })).toEqual([menu[3]]);
    expect(matchSegment(menu, { role: 'menuitem', index: 3 })).toEqual([]);
    expect(matchSegment(menu, { role: 'menuitemcheckbox' })).toEqual([menu[4]]);
  });
});

describe('segmentFor', () => {
  const siblings = [
    item('push button', 'OK'),
    item('push button', 'OK'),
    item('push button', ''),
    item('push button', 'Cancel'),
    item('label', 'Name:'),
    item('frame', 'Doc'),
  ];
  const expectations: [number, Segment][] = [
    [0, { role: 'button', name: 'OK', index: 0 }],
    [1, { role: 'button', name: 'OK', index: 1 }],
    [2, { role: 'button', index: 2 }],
    [3, { role: 'button', name: 'Cancel' }],
    [4, { role: 'text' }],
    [5, { role: 'window', index: 0 }],
  ];

  it.each(expectations)('builds the least unique segment for sibling %i', (i, segment) => {
    const child = siblings[i];
    if (!child) throw new Error('fixture');
    expect(segmentFor(child, siblings)).toEqual(segment);
    expect(matchSegment(siblings, segment)).toEqual([child]);
  });

  it('names status bars by index, not by the text they show, which changes: the path outlives it', () => {
    const bars = [
      item('status bar', '3 files selected'),
      { ...item('status bar', 'Information'), states: ['offscreen'] },
    ];
    const segments = bars.map((bar) => segmentFor(bar, bars));
    expect(segments).toEqual([
      { role: 'statusbar', index: 0 },
      { role: 'statusbar', index: 1 },
    ]);
    const later = [item('status bar', '1 file selected'), bars[1] as (typeof bars)[1]];
    expect(matchSegment(later, segments[0] as Segment)).toEqual([later[0]]);
  });

  it('uses the normalized name so that the segment is readable and still matches', () => {
    const menu = [item('menu item', 'Save As...      '), item('menu item', 'Quit')];
    const segment = segmentFor(menu[0] as (typeof menu)[0], menu);
    expect(segment).toEqual({ role: 'menuitem', name: 'Save As...' });
    expect(matchSegment(menu, segment)).toEqual([menu[0]]);
  });
});

describe('rows of a long list walked in part', () => {
  const rows = [item('list item', ''), item('list item', ''), item('list item', 'Row 40')];

  it('on screen: an unnamed row is placed by its index among the rows shown, a named one by its name', () => {
    expect(rows.map((row) => segmentFor(row, rows, true))).toEqual([
      { role: 'listitem', index: 0 },
      { role: 'listitem', index: 1 },
      { role: 'listitem', name: 'Row 40' },
    ]);
  });

  it('kept by a search: an unnamed row gets no index, which would count among the kept rows only', () => {
    expect(rows.map((row) => segmentFor(row, rows, 'filtered'))).toEqual([
      { role: 'listitem' },
      { role: 'listitem' },
      { role: 'listitem', name: 'Row 40' },
    ]);
  });
});

describe('a named container', () => {
  it('keeps its name in its segment even alone of its role: a bare "group" names a transparent one', () => {
    const siblings = [item('panel', 'Forms dialog'), item('push button', 'OK')];
    const segment = segmentFor(siblings[0] as (typeof siblings)[0], siblings);
    expect(segment).toEqual({ role: 'group', name: 'Forms dialog' });
    expect(formatPath({ app: 'zenity', segments: [{ role: 'dialog' }, segment] })).toBe(
      'app("zenity")/dialog/group["Forms dialog"]',
    );
    expect(matchSegment(siblings, segment)).toEqual([siblings[0]]);
  });
});

describe('visible siblings first', () => {
  const shown = (nativeRole: string, name: string) => ({ nativeRole, name, states: [] as string[] });
  const hidden = (nativeRole: string, name: string) => ({ nativeRole, name, states: ['offscreen'] });

  it('counts visible siblings before hidden ones', () => {
    const siblings = [hidden('text', ''), shown('text', ''), shown('text', ''), hidden('push button', 'OK')];
    expect(siblings.map((s) => segmentFor(s, siblings))).toEqual([
      { role: 'textbox', index: 2 },
      { role: 'textbox', index: 0 },
      { role: 'textbox', index: 1 },
      { role: 'button' },
    ]);
  });

  it('gives a visible element the same index whether or not the walk saw its hidden siblings', () => {
    const visible = [shown('text', ''), shown('text', '')];
    const all = [hidden('text', ''), ...visible];
    for (const s of visible) expect(segmentFor(s, visible)).toEqual(segmentFor(s, all));
  });

  it('matches visible elements before hidden ones, and hidden ones when no visible one matches', () => {
    const twin = hidden('text', 'Name');
    const field = shown('text', 'Name');
    const menuItem = hidden('menu item', 'Save');
    const siblings = [twin, field, menuItem];
    // A typed segment that matches a visible element and its hidden twin means the visible one.
    expect(matchSegment(siblings, { role: 'textbox', name: 'Name' })).toEqual([field]);
    expect(matchSegment(siblings, { role: 'menuitem', name: 'Save' })).toEqual([menuItem]);
    // Each element's own segment selects it alone.
    for (const s of siblings) expect(matchSegment(siblings, segmentFor(s, siblings))).toEqual([s]);
  });
});
