import { describe, expect, it } from 'vitest';
import { diffApp as changesOf } from '../../../../src/engine/kernel/diff.js';
import { renderChanges } from '../../../../src/engine/render/changes.js';
import { WATCHING } from '../../../../src/engine/render/vocabulary.js';
import { RefTable } from '../../../../src/engine/kernel/refs.js';
import { annotate, type Walked } from '../../../../src/engine/kernel/tree.js';
import type { ElementNode } from '../../../../src/helper-client/protocol.js';
import { byId, el, mousepad, SECRET } from '../fixtures.js';

const app = { pid: 4242, name: 'mousepad' };

/** The diff as the agent reads it. */
const diffApp = (before: Walked, after: Walked, maxLines?: number) =>
  renderChanges(changesOf(before, after), maxLines);

function pair(change: (root: ElementNode) => void): [Walked, Walked] {
  const refs = new RefTable();
  const at = (node: ElementNode) => annotate({ node, path: { app: 'mousepad', segments: [] }, app }, refs);
  const before = at(mousepad());
  const after = mousepad();
  change(after);
  return [before, at(after)];
}

describe('diffApp', () => {
  it("for a watching person, a field's text reads as its length, before and after", () => {
    const [before, after] = pair((root) => {
      byId(root, 'editor').value = 'typed hunter2';
    });
    const watched = renderChanges(changesOf(before, after), undefined, WATCHING);
    expect(watched).toContain('value=(13 characters) (was: focused multiline value=(11 characters))');
    expect(watched).not.toMatch(/hunter2|Hello world/);
    expect(diffApp(before, after)).toContain('value="typed hunter2"');
  });

  it("for a watching person, a name that may be what was typed reads as its length: a field's, an editable element's, the text inside a field", () => {
    const [before, after] = pair((root) => {
      const editor = byId(root, 'editor');
      editor.name = 'hello';
      editor.children = [el('label', 'hellohello', { id: 'inner' })];
      byId(root, 'ok').name = 'Done';
    });
    const watched = renderChanges(changesOf(before, after), undefined, WATCHING);
    expect(watched).toContain('textbox name=(5 characters) at app("mousepad")/window[0]/textbox ');
    expect(watched).toContain('text name=(10 characters)');
    expect(watched).toContain('button "Done"');
    expect(watched).not.toContain('hello');
    expect(diffApp(before, after)).toContain('textbox "hello"');
  });

  it('of more changes than are shown, the element that took the focus is among those shown', () => {
    const [before, after] = pair((root) => {
      // A page scrolled by the key: many lines change first; the focus moves to the last one.
      for (const id of ['mi-new', 'mi-open', 'mi-saveas', 'mi-quit', 'mi-undo', 'mi-wrap'])
        byId(root, id).name = `${id} moved`;
      byId(root, 'editor').states = ['editable', 'multiline', 'focusable'];
      byId(root, 'ok').states = ['focused'];
    });
    const lines = diffApp(before, after, 3).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^~ button "OK" \[ref=e\d+\] focused \(was: not focused\)$/);
    expect(lines[4]).toMatch(/^\[5 more changes not shown/);
    // Shown whole, the changes keep their order.
    expect(diffApp(before, after).split('\n').at(-1)).toMatch(/button "OK"/);
  });

  it('says nothing changed for equal walks', () => {
    expect(diffApp(...pair(() => {}))).toBe('Nothing changed in the app’s UI.');
  });

  it('matches by handle, not text: a renamed element is a change, a new one with an old name is an addition', () => {
    const [before, after] = pair((root) => {
      byId(root, 'mi-quit').name = 'Exit';
      byId(root, 'menu-file').children?.push(el('menu item', 'New      ', { id: 'mi-new-2' }));
    });
    expect(diffApp(before, after).split('\n')).toEqual([
      'Changes:',
      '~ menuitem "Exit" [ref=e10] (was: menuitem "Quit" [ref=e10])',
      '+ menuitem "New" [ref=e23]',
    ]);
  });

  it('reports windows opened and closed by title, with the new window’s content but not the old one’s', () => {
    const [before, after] = pair((root) => {
      root.children = [
        ...(root.children ?? []).filter((c) => c.id !== 'dlg'),
        el('dialog', 'Save As', { id: 'save' }, [el('push button', 'Save', { id: 'save-btn' })]),
      ];
    });
    expect(diffApp(before, after).split('\n')).toEqual([
      'Changes:',
      '+ opened: dialog "Save As" [ref=e23]',
      '- closed: dialog "Unlock" [ref=e18]',
      '+ button "Save" [ref=e24]',
    ]);
  });

  it('shows state changes and removals, and never a secure value', () => {
    const [before, after] = pair((root) => {
      byId(root, 'menu-file').states = ['expanded'];
      byId(root, 'pw').value = `${SECRET}-changed`;
      const edit = byId(root, 'menu-edit');
      edit.children = edit.children?.filter((c) => c.id !== 'mi-undo');
    });
    const out = diffApp(before, after);
    expect(out.split('\n')).toEqual([
      'Changes:',
      '~ menu "File" [ref=e5] expanded (was: collapsed)',
      '- menuitem "Undo" [ref=e12] disabled',
    ]);
    expect(out).not.toContain(SECRET);
  });

  it('a menu that closed counts the items it hid on its own line, rather than listing them as removed', () => {
    const refs = new RefTable();
    const at = (node: ElementNode) => annotate({ node, path: { app: 'mousepad', segments: [] }, app }, refs);
    const open = mousepad();
    byId(open, 'menu-file').states = ['selected'];
    const before = at(open);
    const closedMenu = mousepad();
    byId(closedMenu, 'menu-file').children = [];
    const edit = byId(closedMenu, 'menu-edit');
    edit.children = edit.children?.filter((c) => c.id !== 'mi-undo');
    expect(diffApp(before, at(closedMenu)).split('\n')).toEqual([
      'Changes:',
      '~ menu "File" [ref=e5] collapsed (was: selected): it closed, hiding its 5 items',
      // Edit did not close: an item gone from it is removed.
      '- menuitem "Undo" [ref=e12] disabled',
    ]);
  });

  it('caps the lines and counts the rest', () => {
    const [before, after] = pair((root) => {
      byId(root, 'status').children = Array.from({ length: 40 }, (_, i) => el('label', `Line ${i}`));
    });
    const lines = diffApp(before, after, 30).split('\n');
    expect(lines).toHaveLength(32);
    expect(lines.at(-1)).toBe('[10 more changes not shown; snapshot_ui shows the whole tree]');
  });
});
