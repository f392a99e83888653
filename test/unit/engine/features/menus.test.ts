/** Menus on both tree shapes: GTK (menu bar in the window) and macOS (AXMenuBar of the app, AXMenu levels). */
import { describe, expect, it } from 'vitest';
import { textEngine } from '../text-engine.js';
import { parseMenuPath } from '../../../../src/menu-path.js';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import { MacpilotError } from '../../../../src/errors.js';
import type {
  ElementNode,
  MethodName,
  Params,
  Point,
  Result,
} from '../../../../src/helper-client/protocol.js';
import { FakeHelper } from '../fake-helper.js';
import { failure } from '../failure.js';
import { byId, el, mousepad } from '../fixtures.js';

const hidden = { states: ['offscreen' as const] };

/** A macOS-shaped app: the menu bar belongs to the app; each menu's items sit in an unnamed AXMenu. */
function textEdit(): ElementNode {
  return el('AXApplication', 'TextEdit', { id: 'mac-app', pid: 99 }, [
    el('AXMenuBar', '', { id: 'mac-bar', pid: 99 }, [
      el(
        'AXMenuBarItem',
        'File',
        { id: 'mac-file', pid: 99, bounds: { x: 50, y: 0, width: 40, height: 24 } },
        [
          el('AXMenu', '', { id: 'mac-file-menu', pid: 99, ...hidden }, [
            el('AXMenuItem', 'Save As…', { id: 'mac-saveas', pid: 99, shortcut: 'Cmd+Shift+S', ...hidden }),
            el('AXMenuItem', 'Revert', { id: 'mac-revert', pid: 99, states: ['offscreen', 'disabled'] }),
            el('AXMenuItem', 'Open Recent', { id: 'mac-recent', pid: 99, ...hidden }, [
              el('AXMenu', '', { id: 'mac-recent-menu', pid: 99, ...hidden }, [
                el('AXMenuItem', 'notes.txt', { id: 'mac-notes', pid: 99, ...hidden }),
              ]),
            ]),
          ]),
        ],
      ),
    ]),
    el('AXWindow', 'Untitled', { id: 'mac-win', pid: 99, states: ['active'] }),
  ]);
}

/** The fake helper, plus what a window server would do: a click on a menu shows its items. */
class Desktop implements HelperPort {
  readonly clicks: Point[] = [];
  readonly keys: number[] = [];
  readonly activated: number[] = [];

  constructor(readonly fake: FakeHelper) {}

  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    if (method === 'apps.activate') {
      this.activated.push((params as Params<'apps.activate'>).pid);
      return { activated: true } as Result<M>;
    }
    if (method === 'input.click') this.click((params as Params<'input.click'>).at);
    if (method === 'system.hello') return { platform: 'darwin' } as Result<M>;
    if (method === 'input.key') {
      this.keys.push((params as Params<'input.key'>).code);
      return {} as Result<M>;
    }
    return this.fake.call(method, params);
  }

  private click(at: Point): void {
    this.clicks.push(at);
    const hit = nodes(textEditOf(this.fake)).find((n) => {
      const b = n.bounds;
      return b && at.x >= b.x && at.y >= b.y && at.x < b.x + b.width && at.y < b.y + b.height;
    });
    // A click on a macOS menu item shows its AXMenu and the items in it, one under the other.
    const menu = hit?.children?.[0];
    const box = hit?.bounds;
    if (!box || !menu) return;
    const shown = [menu, ...(menu.children ?? [])];
    shown.forEach((n, i) => {
      n.states = n.states.filter((s) => s !== 'offscreen');
      n.bounds = { x: box.x + 100, y: box.y + 30 + 20 * i, width: 100, height: 20 };
    });
  }
}

const textEditOf = (fake: FakeHelper): ElementNode =>
  fake.apps.find((a) => a.name === 'TextEdit')?.root as ElementNode;

function nodes(node: ElementNode): ElementNode[] {
  return [node, ...(node.children ?? []).flatMap(nodes)];
}

function setup() {
  const gtk = { pid: 4242, name: 'mousepad', active: true, root: mousepad() };
  const mac = { pid: 99, name: 'TextEdit', active: false, root: textEdit() };
  const desktop = new Desktop(new FakeHelper([gtk, mac]));
  return { desktop, engine: textEngine(desktop, { settleMs: 0, pollMs: 0 }) };
}

describe('menu paths', () => {
  it('split on ">" and refuse empty names', async () => {
    expect(parseMenuPath(' File >Save As… ')).toEqual(['File', 'Save As…']);
    expect(() => parseMenuPath('File > > Save')).toThrow(MacpilotError);
  });
});

describe('list_menu_items', () => {
  it('refuses to list an item as if it were a menu', async () => {
    const { engine } = setup();
    const error = await failure(engine.menus.list('TextEdit', 'File > Save As…', 1));
    expect(error.what).toBe('"File > Save As…" is a menu item, not a menu');
  });

  it('lists a GTK menu bar in its window, padded names trimmed, separators left out', async () => {
    const { engine } = setup();
    const bar = await engine.menus.list('mousepad', undefined, 1);
    expect(bar.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^- menu "File" \[ref=e\d+\] ▸$/),
      expect.stringMatching(/^- menu "Edit" \[ref=e\d+\] ▸$/),
    ]);
    const edit = await engine.menus.list('mousepad', 'edit', 1);
    expect(edit.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^- menuitem "Undo" \[ref=e\d+\] disabled$/),
      expect.stringMatching(/^- menuitemcheckbox "Word Wrap" \[ref=e\d+\] checked$/),
    ]);
    const file = await engine.menus.list('mousepad', 'File', 1);
    expect(file).toMatch(/^- menuitem "Save As\.\.\." \[ref=e\d+\]$/m);
    expect(file).not.toContain('separator');
  });

  it('lists a macOS menu bar of the app, through the unnamed AXMenu levels, submenus to a depth', async () => {
    const { engine } = setup();
    const file = await engine.menus.list('TextEdit', 'File', 2);
    expect(file.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^- menuitem "Save As…" \[ref=e\d+\] shortcut=Cmd\+Shift\+S$/),
      expect.stringMatching(/^- menuitem "Revert" \[ref=e\d+\] disabled$/),
      expect.stringMatching(/^- menuitem "Open Recent" \[ref=e\d+\] ▸$/),
      expect.stringMatching(/^ {2}- menuitem "notes\.txt" \[ref=e\d+\]$/),
    ]);
  });

  it('says whether a check item is checked, either way', async () => {
    const { engine, desktop } = setup();
    const wrap = byId(desktop.fake.apps[0]?.root as ElementNode, 'mi-wrap');
    wrap.states = [];
    expect(await engine.menus.list('mousepad', 'Edit', 1)).toMatch(
      /^- menuitemcheckbox "Word Wrap" \[ref=e\d+\] not checked$/m,
    );
  });

  it('refuses a name that is not there, listing what is', async () => {
    const { engine } = setup();
    const error = await failure(engine.menus.list('TextEdit', 'File > Open Recnt', 1));
    expect(error.what).toBe('No menu item "Open Recnt" in the menu "File"');
    expect(error.why).toBe('it holds: "Save As…", "Revert", "Open Recent" ▸');
  });
});

describe('click_menu_item', () => {
  it('clicks each level open at its centre, then the item, matching "..." to "…" and any case', async () => {
    const { engine, desktop } = setup();
    const out = await engine.menus.click('textedit', 'file > save as...', undefined);
    expect(out).toMatch(/^Clicked the menu item "File > Save As…" \[ref=e\d+\]\./);
    expect(desktop.activated).toEqual([99]);
    const saveAs = byId(textEditOf(desktop.fake), 'mac-saveas').bounds;
    expect(desktop.clicks).toEqual([
      { x: 70, y: 12 },
      { x: (saveAs?.x ?? 0) + 50, y: (saveAs?.y ?? 0) + 10 },
    ]);
  });

  it('opens submenus on the way', async () => {
    const { engine, desktop } = setup();
    await engine.menus.click('TextEdit', 'File > Open Recent > notes.txt', undefined);
    expect(desktop.clicks).toHaveLength(3);
  });

  it('refuses a disabled item as its open menu shows it, never clicking it, and closes the menu again', async () => {
    // A closed menu's states may be stale (macOS validates items as the menu opens): checked once shown.
    const { engine, desktop } = setup();
    const error = await failure(engine.menus.click('TextEdit', 'File > Revert', undefined));
    expect(error.why).toBe('the app has disabled it right now');
    expect(desktop.clicks).toHaveLength(1); // File, not Revert
    expect(desktop.keys).toHaveLength(1); // Escape, once for the one menu opened
  });
});

describe('get_menu_item_state', () => {
  it('says enabled or disabled, checked for check items, and whether a submenu opens', async () => {
    const { engine } = setup();
    expect(await engine.menus.state('mousepad', 'Edit > Word Wrap')).toContain(
      'state: enabled, checked, no submenu',
    );
    expect(await engine.menus.state('mousepad', 'Edit > Undo')).toContain('state: disabled, no submenu');
    expect(await engine.menus.state('TextEdit', 'File > Open Recent')).toContain(
      'state: enabled, has a submenu',
    );
    expect(await engine.menus.state('TextEdit', 'File > Save As…')).toContain(
      'state: enabled, no submenu\nshortcut: Cmd+Shift+S (press_key takes it as written)',
    );
  });
});
