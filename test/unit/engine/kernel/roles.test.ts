import { describe, expect, it } from 'vitest';
import { lookupRole, normalizeRole, parseRole, ROLES } from '../../../../src/engine/kernel/roles.js';
import { MacpilotError } from '../../../../src/errors.js';

describe('normalizeRole', () => {
  it.each([
    ['push button', 'button'],
    ['toggle button', 'button'],
    ['check box', 'checkbox'],
    ['radio button', 'radio'],
    ['text', 'textbox'],
    ['password text', 'textbox'],
    ['entry', 'textbox'],
    ['frame', 'window'],
    ['file chooser', 'dialog'],
    ['menu bar', 'menubar'],
    ['menu item', 'menuitem'],
    ['check menu item', 'menuitemcheckbox'],
    ['radio menu item', 'menuitemradio'],
    ['page tab', 'tab'],
    ['page tab list', 'tablist'],
    ['table cell', 'cell'],
    ['combo box', 'combobox'],
    ['spin button', 'spinbutton'],
    ['scroll pane', 'scrollarea'],
    ['filler', 'generic'],
    ['panel', 'group'],
    ['label', 'text'],
    ['tool bar', 'toolbar'],
    ['status bar', 'statusbar'],
    ['document frame', 'document'],
    ['alert', 'alert'],
    ['application', 'application'],
    ['some future role', 'generic'],
  ])('AT-SPI %s → %s', (native, role) => {
    expect(normalizeRole(native)).toBe(role);
  });

  it.each([
    ['AXButton', undefined, 'button'],
    ['AXCheckBox', undefined, 'checkbox'],
    ['AXCheckBox', 'AXSwitch', 'switch'],
    ['AXCheckBox', 'AXToggle', 'button'],
    ['AXRadioButton', 'AXTabButton', 'tab'],
    ['AXTextField', undefined, 'textbox'],
    ['AXTextField', 'AXSecureTextField', 'textbox'],
    ['AXTextField', 'AXSearchField', 'searchbox'],
    ['AXStaticText', undefined, 'text'],
    ['AXWindow', 'AXStandardWindow', 'window'],
    ['AXWindow', 'AXDialog', 'dialog'],
    ['AXSheet', undefined, 'dialog'],
    ['AXMenuBarItem', undefined, 'menuitem'],
    ['AXPopUpButton', undefined, 'combobox'],
    ['AXIncrementor', undefined, 'spinbutton'],
    ['AXOutline', undefined, 'tree'],
    ['AXRow', 'AXOutlineRow', 'treeitem'],
    ['AXWebArea', undefined, 'document'],
    ['AXProgressIndicator', undefined, 'progressbar'],
    ['AXDisclosureTriangle', undefined, 'button'],
    ['AXSomethingNew', undefined, 'generic'],
  ])('macOS %s/%s → %s', (native, subrole, role) => {
    expect(normalizeRole(native, subrole)).toBe(role);
  });
});

describe('parseRole', () => {
  it.each([
    ['menu_bar', 'menubar'],
    ['menubar', 'menubar'],
    ['menu bar', 'menubar'],
    ['Menu-Bar', 'menubar'],
    ['menu_item', 'menuitem'],
    ['text_field', 'textbox'],
    ['AXButton', 'button'],
    ['axbutton', 'button'],
    ['push button', 'button'],
    ['toggle_button', 'button'],
    ['AXSecureTextField', 'textbox'],
    ['text', 'text'],
    ['label', 'text'],
    ['BUTTON', 'button'],
  ])('%s → %s', (token, role) => {
    expect(parseRole(token)).toBe(role);
  });

  it('accepts every role of the vocabulary as itself', () => {
    for (const role of ROLES) expect(lookupRole(role)).toBe(role);
  });

  it('rejects an unknown role and lists the valid ones', () => {
    const error = (() => {
      try {
        parseRole('wizzbang');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MacpilotError);
    const { what, next } = error as MacpilotError;
    expect(what).toContain('"wizzbang"');
    expect(next).toContain('menuitemcheckbox');
    expect(next).toContain('textbox');
  });
});
