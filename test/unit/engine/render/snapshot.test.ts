import { describe, expect, it } from 'vitest';
import { RefTable } from '../../../../src/engine/kernel/refs.js';
import { renderSnapshot } from '../../../../src/engine/render/snapshot.js';
import { snapshotJson } from '../../../../src/engine/render/json.js';
import { type RenderOptions } from '../../../../src/engine/kernel/results.js';
import { annotate, type Walked, walk } from '../../../../src/engine/kernel/tree.js';
import type { ElementNode } from '../../../../src/helper-client/protocol.js';
import { calculator, el, mousepad, SECRET } from '../fixtures.js';

const app = { pid: 4242, name: 'mousepad' };
const options: RenderOptions = { depth: 20, maxNodes: 400, maxChars: 40_000, walkTruncated: false };

function walked(node: ElementNode, refs = new RefTable()): Walked {
  return annotate({ node, path: { app: 'mousepad', segments: [] }, app }, refs);
}

describe('a long list walked where it is on screen', () => {
  const list = () =>
    el('application', 'zenity', {}, [
      el('table', '', { childCount: 10_001, shownChildren: { from: 9_874, count: 3 } }, [
        el('table column header', 'n'),
        el('table cell', '9875'),
        el('table cell', '9876'),
      ]),
    ]);

  it('says how many children it left off screen, where those shown start, and how to reach the others', () => {
    const text = renderSnapshot(walked(list()), options);
    expect(text.split('\n').at(-1)).toBe(
      '[off screen: 9998 more children of e2 (10001 in all; those shown start at #9875), not read. To reach them: ' +
        'find_elements within=e2 with include_hidden: true searches them by name (10,000 rows in about half a second); scroll_to_element ' +
        'brings one into view; snapshot_ui ref=e2 with include_hidden: true lists them, up to max_nodes and the size cap]',
    );
  });

  it("promises no fast search where the items' text is in their children (a web page's list), nor the listing just made", () => {
    const page = el('application', 'Chromium', {}, [
      el('list', 'Rows', { childCount: 10_000, shownChildren: { from: 0, count: 2 } }, [
        el('list item', '', {}, [el('static', 'Row 1')]),
        el('list item', '', {}, [el('static', 'Row 2')]),
      ]),
    ]);
    const text = renderSnapshot(walked(page), { ...options, includeHidden: true });
    expect(text.split('\n').at(-1)).toBe(
      '[off screen: 9998 more children of e2 (10000 in all; those shown start at #1), not read. To reach them: ' +
        'find_elements within=e2 with include_hidden: true searches them (their text is in their children, so each ' +
        'is read: slow past a few thousand); scroll_to_element brings one into view]',
    );
  });

  it("names an unnamed row on screen past the list's first by its role alone, never by its place among those read", () => {
    const page = (from: number) =>
      el('application', 'Chromium', {}, [
        el('list', 'Rows', { childCount: 10_000, shownChildren: { from, count: 2 } }, [
          el('list item', '', {}, [el('static', '•'), el('static', `Row ${from + 1}`)]),
          el('list item', '', {}, [el('static', '•'), el('static', `Row ${from + 2}`)]),
        ]),
      ]);
    const rows = (from: number) =>
      [...walk(walked(page(from)))].map((node) => node.path).filter((path) => path.includes('Row'));
    expect(rows(9_875)).toEqual([
      'app("mousepad")/list/listitem/text["Row 9876"]',
      'app("mousepad")/list/listitem/text["Row 9877"]',
    ]);
    // From the list's first row, a row's place among those read is its place in the list.
    expect(rows(0)).toEqual([
      'app("mousepad")/list/listitem[0]/text["Row 1"]',
      'app("mousepad")/list/listitem[1]/text["Row 2"]',
    ]);
  });

  it('shows a number with at most three decimals', () => {
    const bar = el('application', 'zenity', {}, [el('scroll bar', '', { value: 227_097.740_410_582_86 })]);
    expect(renderSnapshot(walked(bar), options)).toContain('- scrollbar [ref=e2] value=227097.74');
  });

  it('in JSON, the list carries the same counts', () => {
    const ui = { patterns: [], state: 'idle' as const, because: '' };
    const json = snapshotJson({
      kind: 'snapshot',
      title: 'zenity',
      tree: walked(list()),
      render: options,
      ui,
    });
    expect(json.tree.children[0]?.off_screen).toEqual({ children: 9_998, shown_from: 9_874 });
  });
});

describe('renderSnapshot', () => {
  it('renders one element a line, collapsing unnamed chrome and hiding secure values', () => {
    const text = renderSnapshot(walked(mousepad()), options);
    expect(text).toBe(
      [
        '- application "mousepad" [ref=e1]',
        '  - window "Untitled 1 - Mousepad" [ref=e2] active',
        '    - menubar [ref=e4]',
        '      - menu "File" [ref=e5] collapsed',
        '        - menuitem "New" [ref=e6]',
        '        - menuitem "Open..." [ref=e7]',
        '        - menuitem "Save As..." [ref=e8]',
        '        - separator [ref=e9]',
        '        - menuitem "Quit" [ref=e10]',
        '      - menu "Edit" [ref=e11]',
        '        - menuitem "Undo" [ref=e12] disabled',
        '        - menuitemcheckbox "Word Wrap" [ref=e13] checked',
        '    - textbox [ref=e16] focused multiline value="Hello world"',
        '    - statusbar [ref=e17]',
        '  - dialog "Unlock" [ref=e18]',
        '    - text "Password:" [ref=e19]',
        '    - textbox [ref=e20] secure',
        '    - button "OK" [ref=e21]',
        '    - button "Cancel" [ref=e22] disabled',
      ].join('\n'),
    );
    expect(text).not.toContain(SECRET);
  });

  it('treats each secure marker (state, AX subrole, AT-SPI role) as secure', () => {
    const fields = [
      el('text', '', { states: ['secure'], value: SECRET }),
      el('AXTextField', '', { subrole: 'AXSecureTextField', value: SECRET }),
      el('password text', '', { value: SECRET }),
    ];
    for (const field of fields) {
      const out = renderSnapshot(walked(el('application', 'a', {}, [field])), options);
      expect(out).toContain('- textbox [ref=e2] secure');
      expect(out).not.toContain(SECRET);
    }
  });

  it('keeps refs stable across snapshots of a changed tree', () => {
    const refs = new RefTable();
    const first = walked(mousepad(), refs);
    const tree = mousepad();
    tree.children?.reverse();
    const second = walked(tree, refs);
    const refOf = (w: Walked, name: string) => [...walk(w)].find((n) => n.info.name === name)?.ref;
    expect(refOf(second, 'OK')).toBe(refOf(first, 'OK'));
    expect(refOf(second, 'Quit')).toBe('e10');
    expect(refs.get('e21')?.path).toBe('app("mousepad")/dialog/button["OK"]');
    expect(refs.get('e8')?.path).toBe(
      'app("mousepad")/window[0]/menubar/menu["File"]/menuitem["Save As..."]',
    );
  });

  it('cuts at max_nodes and says what was cut and how to see it', () => {
    const text = renderSnapshot(walked(mousepad()), { ...options, maxNodes: 5 });
    const lines = text.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[4]).toBe('        - menuitem "New" [ref=e6]');
    expect(lines[5]).toMatch(/^\[cut: 14 elements beyond max_nodes=5/);
    expect(lines[5]).toContain('snapshot_ui with ');
    expect(lines[5]).toContain('a larger max_nodes, or find_elements to search]');
  });

  it('enforces the character cap whatever max_nodes says', () => {
    const many = el(
      'application',
      'big',
      {},
      Array.from({ length: 2000 }, (_, i) => el('push button', `Button number ${i}`)),
    );
    const text = renderSnapshot(walked(many), { ...options, maxNodes: 5000, maxChars: 10_000 });
    expect(text.length).toBeLessThan(10_400);
    const cut = text.split('\n').at(-1);
    expect(cut).toMatch(/^\[cut: \d+ elements beyond the size cap of 10,000 characters\./);
    // At its limit already, max_nodes is no way to see more.
    expect(cut).toMatch(/for a subtree, or find_elements to search\]$/);
    expect(cut).not.toContain('max_nodes');
  });

  it('cut by the size cap after a walk stopped at its cap: the cap is named, and more lines are no way to see more', () => {
    const many = el('application', 'big', {}, [
      { ...el('panel', 'Not walked'), childCount: 9 },
      ...Array.from({ length: 2000 }, (_, i) => el('push button', `Button number ${i}`)),
    ]);
    const text = renderSnapshot(walked(many), {
      ...options,
      maxNodes: 2000,
      maxChars: 10_000,
      walkTruncated: true,
      walkMaxNodes: 6000,
      includeHidden: true,
    });
    const cut = text.split('\n').at(-1) ?? '';
    expect(cut).toMatch(/9 elements not walked \(the walk stopped at its cap of 6,000 elements\)/);
    expect(cut).toMatch(/beyond the size cap of 10,000 characters/);
    expect(cut).not.toContain('max_nodes');
  });

  it('names no ref for a subtree when nothing below the root was named (the root is what was read)', () => {
    const many = el(
      'application',
      'big',
      {},
      Array.from({ length: 50 }, (_, i) => el('push button', `Button ${i}`)),
    );
    const cut =
      renderSnapshot(walked(many), { ...options, maxNodes: 10 })
        .split('\n')
        .at(-1) ?? '';
    expect(cut).toContain('snapshot_ui with the ref of a container in it for a subtree, a larger max_nodes');
  });

  it('keeps default-capped output of a huge tree under 40 KB', () => {
    const wide = (depth: number): ElementNode[] =>
      Array.from({ length: 8 }, (_, i) =>
        el(
          'panel',
          `A fairly long panel name number ${i} at depth ${depth}`,
          {},
          depth > 0 ? wide(depth - 1) : [],
        ),
      );
    const text = renderSnapshot(walked(el('application', 'huge', {}, wide(4))), options);
    expect(text.length).toBeLessThanOrEqual(40_000 + 400);
    expect(text.split('\n')).toHaveLength(401);
  });

  it('reports elements below the depth cap and unexpanded refs', () => {
    const tree = el('application', 'a', {}, [
      el('frame', 'W', {}, [{ ...el('panel', 'Deep'), childCount: 7 }]),
    ]);
    const text = renderSnapshot(walked(tree), { ...options, depth: 2 });
    expect(text.split('\n').at(-1)).toBe(
      '[cut: at least 7 elements below depth 2; children not shown under e3. To see more: snapshot_ui with ref=e3 ' +
        'for a subtree, a larger depth, or find_elements to search]',
    );
  });

  it('counts below a level cut only the elements that would get a line, wrappers left out', () => {
    const tree = el('application', 'a', {}, [
      el('frame', 'W', {}, [
        el('panel', 'Deep', {}, [el('panel', '', {}, [el('push button', 'B'), el('push button', 'C')])]),
      ]),
    ]);
    const text = renderSnapshot(walked(tree), { ...options, maxLevel: 2 });
    expect(text.split('\n').at(-1)).toMatch(/^\[cut: 3 elements below depth 1;/);
  });

  it('names a cut under a wrapper without a line at the nearest element that has one', () => {
    const tree = el('application', 'a', {}, [
      el('frame', 'W', {}, [el('panel', '', {}, [{ ...el('panel', ''), childCount: 4 }])]),
    ]);
    const text = renderSnapshot(walked(tree), { ...options, depth: 3 });
    expect(text.split('\n')).toEqual([
      '- application "a" [ref=e1]',
      '  - window "W" [ref=e2]',
      '[cut: at least 4 elements below depth 3; children not shown under e2. To see more: snapshot_ui with ref=e2 ' +
        'for a subtree, a larger depth, or find_elements to search]',
    ]);
  });

  it('says nothing was cut by leaving out the closing line', () => {
    const text = renderSnapshot(walked(el('application', 'a', {}, [el('push button', 'B')])), options);
    expect(text).not.toContain('[cut');
  });

  it('with a roles filter shows only those roles, hoisting the rest', () => {
    const text = renderSnapshot(walked(mousepad()), {
      ...options,
      roles: new Set(['menu', 'menuitemcheckbox']),
    });
    expect(text).toBe(
      [
        '- application "mousepad" [ref=e1]',
        '  - menu "File" [ref=e5] collapsed',
        '  - menu "Edit" [ref=e11]',
        '    - menuitemcheckbox "Word Wrap" [ref=e13] checked',
      ].join('\n'),
    );
  });

  it('cuts long values with their length and JSON-escapes them', () => {
    const long = `line one\n"quoted"${'x'.repeat(500)}`;
    const tree = el('application', 'a', {}, [el('text', 'Body', { value: long })]);
    const line = renderSnapshot(walked(tree), options).split('\n')[1];
    expect(line).toContain('value="line one\\n\\"quoted\\"xxx');
    expect(line).toContain(`(cut: ${long.length} chars in all; get_element shows it all)`);
  });

  it('shows a collapsed-chrome container that has a state worth showing', () => {
    const tree = el('application', 'a', {}, [el('panel', '', { states: ['selected'] }, [el('label', 'x')])]);
    expect(renderSnapshot(walked(tree), options)).toContain('- group [ref=e2] selected\n    - text "x"');
  });
});

describe('names from content in a snapshot', () => {
  const calc = () => walked(calculator());
  const lineOf = (root: Walked, id: string) => [...walk(root)].find((w) => w.info.id === id) as Walked;

  it('names a button by its label, folds labels that repeat it, shows the description of an unnamed one', () => {
    expect(renderSnapshot(calc(), options)).toBe(
      [
        '- application "calc" [ref=e1]',
        '  - window "Calculator" [ref=e2]',
        '    - button "7" [ref=e4]',
        '    - button "π" [ref=e6]',
        '    - button "x 2" [ref=e8]',
        '      - text "x" [ref=e10]',
        '      - text "2" [ref=e11]',
        '    - button [ref=e12] description="Clear Display [Escape]"',
        '    - textbox [ref=e13] value="0"',
        '      - text "Result" [ref=e14]',
      ].join('\n'),
    );
  });

  it('keeps a folded label addressable: its ref and path stay, and paths name the button by its label', () => {
    const root = calc();
    expect(lineOf(root, 'lpi').path).toBe('app("mousepad")/window[0]/button["π"]/text');
    expect(lineOf(root, 'l7').path).toBe('app("mousepad")/window[0]/button["7"]/text');
    expect(lineOf(root, 'pi').path).toBe('app("mousepad")/window[0]/button["π"]');
    expect(lineOf(root, 'clear').path).toBe('app("mousepad")/window[0]/button[3]');
  });

  it('keeps a label that adds to its parent’s line, or whose parent has no line', () => {
    const tree = el('frame', 'w', {}, [
      el('push button', 'Go', {}, [el('label', 'Go', { states: ['selected'] })]),
      el('push button', 'Stop', {}, [el('label', 'Stop', {}, [el('image', 'icon')])]),
    ]);
    const text = renderSnapshot(walked(tree), options);
    expect(text).toContain('- text "Go" [ref=e3] selected');
    expect(text).toContain('- text "Stop" [ref=e5]');
    const labelsOnly = renderSnapshot(walked(calculator()), { ...options, roles: new Set(['text']) });
    expect(labelsOnly).toContain('- text "π"');
    expect(labelsOnly).toContain('- text "7"');
  });

  it('shows a description only where there is no name', () => {
    const tree = el('frame', 'w', {}, [
      el('icon', '', { description: 'Warning' }),
      el('push button', 'Save', { description: 'Save the file' }),
    ]);
    expect(renderSnapshot(walked(tree), options).split('\n').slice(1)).toEqual([
      '  - image [ref=e2] description="Warning"',
      '  - button "Save" [ref=e3]',
    ]);
  });
});

describe('paths in a walk', () => {
  it('pass through unnamed containers, which are themselves addressed among their transparent siblings', () => {
    const refs = new RefTable();
    const tree = el('frame', 'Doc', {}, [
      el('filler', '', {}, [el('menu bar', '', {}, [el('menu', 'File')])]),
      el('panel', '', {}, [el('push button', 'OK'), el('push button', 'Cancel')]),
      el('panel', '', {}, [el('menu bar', '', { states: ['offscreen'] })]),
      el('push button', 'Help'),
    ]);
    const walked = annotate(
      { node: tree, path: { app: 'x', segments: [] }, app: { pid: 1, name: 'x' } },
      refs,
    );
    const paths = new Map([...walk(walked)].map((w) => [w.info.name || w.info.nativeRole, w.path]));
    expect(walkedPaths(walked, 'menu bar')).toEqual(['app("x")/menubar[0]', 'app("x")/menubar[1]']);
    expect(paths.get('File')).toBe('app("x")/menubar[0]/menu');
    expect(paths.get('OK')).toBe('app("x")/button["OK"]');
    expect(paths.get('Help')).toBe('app("x")/button["Help"]');
    expect(paths.get('filler')).toBe('app("x")/generic');
    expect(walkedPaths(walked, 'panel')).toEqual(['app("x")/group[0]', 'app("x")/group[1]']);
  });
});

function walkedPaths(root: Walked, nativeRole: string): string[] {
  return [...walk(root)].filter((w) => w.info.nativeRole === nativeRole).map((w) => w.path);
}
