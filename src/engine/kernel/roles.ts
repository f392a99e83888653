/**
 * One role vocabulary for both platforms, ARIA-like single lowercase words. Native roles (AT-SPI role names,
 * macOS AX roles and subroles) map into it; anything unknown is `generic`. Toggle buttons are `button` with the
 * `pressed` state, as in ARIA.
 */
import { MacpilotError } from '../../errors.js';

export const ROLES = [
  'application',
  'window',
  'dialog',
  'alert',
  'menubar',
  'menu',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'button',
  'checkbox',
  'radio',
  'switch',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'list',
  'listitem',
  'option',
  'tree',
  'treeitem',
  'table',
  'row',
  'column',
  'cell',
  'columnheader',
  'rowheader',
  'grid',
  'tab',
  'tablist',
  'tabpanel',
  'slider',
  'spinbutton',
  'scrollbar',
  'progressbar',
  'toolbar',
  'statusbar',
  'separator',
  'image',
  'link',
  'heading',
  'paragraph',
  'text',
  'group',
  'landmark',
  'splitter',
  'scrollarea',
  'document',
  'tooltip',
  'generic',
] as const;
export type Role = (typeof ROLES)[number];

/** AT-SPI role names as GetRoleName spells them. */
const ATSPI: Record<string, Role> = {
  application: 'application',
  frame: 'window',
  window: 'window',
  'internal frame': 'window',
  dialog: 'dialog',
  'file chooser': 'dialog',
  'color chooser': 'dialog',
  'font chooser': 'dialog',
  'option pane': 'dialog',
  alert: 'alert',
  notification: 'alert',
  'menu bar': 'menubar',
  menu: 'menu',
  'popup menu': 'menu',
  'menu item': 'menuitem',
  'tearoff menu item': 'menuitem',
  'check menu item': 'menuitemcheckbox',
  'radio menu item': 'menuitemradio',
  'push button': 'button',
  button: 'button',
  'toggle button': 'button',
  'push button menu': 'button',
  'check box': 'checkbox',
  'radio button': 'radio',
  switch: 'switch',
  text: 'textbox',
  'password text': 'textbox',
  entry: 'textbox',
  editbar: 'textbox',
  terminal: 'textbox',
  'combo box': 'combobox',
  autocomplete: 'combobox',
  'list box': 'listbox',
  list: 'list',
  'description list': 'list',
  'list item': 'listitem',
  tree: 'tree',
  'tree table': 'table',
  'tree item': 'treeitem',
  table: 'table',
  'table row': 'row',
  'table cell': 'cell',
  'table column header': 'columnheader',
  'column header': 'columnheader',
  'table row header': 'rowheader',
  'row header': 'rowheader',
  'page tab': 'tab',
  'page tab list': 'tablist',
  slider: 'slider',
  dial: 'slider',
  'spin button': 'spinbutton',
  'scroll bar': 'scrollbar',
  'progress bar': 'progressbar',
  'level bar': 'progressbar',
  'tool bar': 'toolbar',
  'status bar': 'statusbar',
  'info bar': 'statusbar',
  separator: 'separator',
  image: 'image',
  icon: 'image',
  'image map': 'image',
  link: 'link',
  heading: 'heading',
  paragraph: 'paragraph',
  label: 'text',
  static: 'text',
  caption: 'text',
  panel: 'group',
  section: 'group',
  form: 'group',
  grouping: 'group',
  landmark: 'landmark',
  article: 'group',
  'block quote': 'group',
  'split pane': 'splitter',
  'scroll pane': 'scrollarea',
  viewport: 'scrollarea',
  'document frame': 'document',
  'document text': 'document',
  'document web': 'document',
  'document email': 'document',
  'document spreadsheet': 'document',
  'document presentation': 'document',
  'tool tip': 'tooltip',
  filler: 'generic',
};

/** macOS AX roles. */
const AX_ROLES: Record<string, Role> = {
  AXApplication: 'application',
  AXWindow: 'window',
  AXSheet: 'dialog',
  AXPopover: 'dialog',
  AXDrawer: 'group',
  AXMenuBar: 'menubar',
  AXMenuBarItem: 'menuitem',
  AXMenu: 'menu',
  AXMenuItem: 'menuitem',
  AXButton: 'button',
  AXMenuButton: 'button',
  AXDisclosureTriangle: 'button',
  AXColorWell: 'button',
  AXDockItem: 'button',
  AXCheckBox: 'checkbox',
  AXRadioButton: 'radio',
  AXTextField: 'textbox',
  AXTextArea: 'textbox',
  AXDateField: 'textbox',
  AXStaticText: 'text',
  AXPopUpButton: 'combobox',
  AXComboBox: 'combobox',
  AXSlider: 'slider',
  AXIncrementor: 'spinbutton',
  AXScrollBar: 'scrollbar',
  AXScrollArea: 'scrollarea',
  AXGroup: 'group',
  AXRadioGroup: 'group',
  AXSplitGroup: 'group',
  AXLayoutArea: 'group',
  AXLayoutItem: 'group',
  AXSplitter: 'splitter',
  AXToolbar: 'toolbar',
  AXTabGroup: 'tablist',
  AXTable: 'table',
  AXOutline: 'tree',
  AXBrowser: 'tree',
  AXGrid: 'grid',
  AXRow: 'row',
  AXColumn: 'column',
  AXCell: 'cell',
  AXList: 'list',
  AXImage: 'image',
  AXLink: 'link',
  AXHeading: 'heading',
  AXWebArea: 'document',
  AXProgressIndicator: 'progressbar',
  AXBusyIndicator: 'progressbar',
  AXLevelIndicator: 'progressbar',
  AXRelevanceIndicator: 'progressbar',
  AXHelpTag: 'tooltip',
};

/** macOS subroles that say more than their role. */
const AX_SUBROLES: Record<string, Role> = {
  AXDialog: 'dialog',
  AXSystemDialog: 'dialog',
  AXSecureTextField: 'textbox',
  AXSearchField: 'searchbox',
  AXSwitch: 'switch',
  AXToggle: 'button',
  AXTabButton: 'tab',
  AXOutlineRow: 'treeitem',
  AXTableRow: 'row',
  AXApplicationAlert: 'alert',
  AXApplicationDialog: 'dialog',
  AXApplicationStatus: 'statusbar',
  AXTabPanel: 'tabpanel',
  AXDocument: 'document',
  AXLandmarkMain: 'landmark',
  AXLandmarkNavigation: 'landmark',
  AXLandmarkBanner: 'landmark',
  AXLandmarkContentInfo: 'landmark',
  AXLandmarkSearch: 'landmark',
  AXLandmarkComplementary: 'landmark',
  AXLandmarkRegion: 'landmark',
};

/** The normalized role of a native role (and macOS subrole). */
export function normalizeRole(nativeRole: string, subrole?: string): Role {
  if (subrole) {
    const fromSubrole = AX_SUBROLES[subrole];
    if (fromSubrole) return fromSubrole;
  }
  return AX_ROLES[nativeRole] ?? ATSPI[nativeRole.toLowerCase()] ?? 'generic';
}

/** Words agents use for roles that are neither our names nor native ones. */
const ALIASES: Record<string, Role> = {
  textfield: 'textbox',
  textarea: 'textbox',
  input: 'textbox',
  edit: 'textbox',
  field: 'textbox',
  searchfield: 'searchbox',
  statictext: 'text',
  togglebutton: 'button',
  checkbutton: 'checkbox',
  radiobutton: 'radio',
  popupbutton: 'combobox',
  dropdown: 'combobox',
  select: 'combobox',
  tabgroup: 'tablist',
  outline: 'tree',
  webarea: 'document',
  sheet: 'dialog',
  progress: 'progressbar',
  img: 'image',
  container: 'generic',
};

const compact = (token: string): string => token.toLowerCase().replace(/[\s_-]+/g, '');

/** Every accepted spelling, compacted (lowercase, no spaces, underscores or dashes), to its role. */
const TOKENS: ReadonlyMap<string, Role> = new Map<string, Role>([
  ...Object.entries(ALIASES),
  ...Object.entries(AX_SUBROLES).map(([k, v]): [string, Role] => [compact(k.slice(2)), v]),
  ...Object.entries(AX_ROLES).map(([k, v]): [string, Role] => [compact(k.slice(2)), v]),
  ...Object.entries(ATSPI).map(([k, v]): [string, Role] => [compact(k), v]),
  ...ROLES.map((r): [string, Role] => [r, r]),
]);

/** The role an agent means by `token`, or undefined. Our own names win over native ones ("text" is static text). */
export function lookupRole(token: string): Role | undefined {
  const key = compact(token.trim());
  return TOKENS.get(key) ?? (/^ax/.test(key) ? TOKENS.get(key.slice(2)) : undefined);
}

/** Like lookupRole, but an unknown token is an error that lists the valid roles. */
export function parseRole(token: string): Role {
  const role = lookupRole(token);
  if (role) return role;
  throw new MacpilotError({
    what: `Unknown role ${JSON.stringify(token)}`,
    why: 'roles use one vocabulary on every platform, and this is not one of its words or aliases',
    next: `use one of: ${ROLES.join(', ')}`,
    kind: 'unknown_role',
    concerns: ['role'],
  });
}

/** The normalized role of an element. */
export function roleOf(element: { nativeRole: string; subrole?: string }): Role {
  return normalizeRole(element.nativeRole, element.subrole);
}

// --- Role sets: each named once, for one purpose. ---

/** Roles that only structure others: unnamed, they get no line in a snapshot and no step in a path. */
export const CHROME_ROLES: ReadonlySet<Role> = new Set(['generic', 'group', 'scrollarea']);

/** A menu's items. */
export const MENU_ITEM_ROLES: ReadonlySet<Role> = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio']);

/** A menu and its items. */
export const MENU_ROLES: ReadonlySet<Role> = new Set(['menu', ...MENU_ITEM_ROLES]);

/** Where a person types free text. */
export const TEXT_INPUT_ROLES: ReadonlySet<Role> = new Set(['textbox', 'searchbox']);

/** Controls that hold a setting (a settings pane is mostly these). */
export const SETTING_ROLES: ReadonlySet<Role> = new Set([
  'checkbox',
  'switch',
  'combobox',
  'radio',
  'slider',
  'spinbutton',
]);

/**
 * Roles whose name may be what was entered in them: a field labelled by itself, a combo box named by the item it
 * shows. Where typed text and values set are told only as lengths, so are these names.
 */
export const ENTERED_NAME_ROLES: ReadonlySet<Role> = new Set([...TEXT_INPUT_ROLES, 'combobox', 'spinbutton']);

/** Everything a form asks a person to fill in: text inputs and settings. */
export const FORM_INPUT_ROLES: ReadonlySet<Role> = new Set([...TEXT_INPUT_ROLES, ...SETTING_ROLES]);

/** Containers of many like items. */
export const COLLECTION_ROLES: ReadonlySet<Role> = new Set(['table', 'grid', 'tree', 'listbox', 'list']);

/** A collection's items: rows, cells and list entries. */
export const COLLECTION_ITEM_ROLES: ReadonlySet<Role> = new Set([
  'row',
  'cell',
  'treeitem',
  'listitem',
  'option',
]);

/** Collections with rows (and columns). */
export const TABLE_ROLES: ReadonlySet<Role> = new Set(['table', 'grid', 'tree']);

/** Top-level windows and the dialogs and alerts over them: what a screen is read per. */
export const WINDOW_ROLES: ReadonlySet<Role> = new Set(['window', 'dialog', 'alert']);

/** Roles whose box is the whole window (the app's root too): a label drawn on them says nothing. */
export const FRAME_ROLES: ReadonlySet<Role> = new Set(['application', ...WINDOW_ROLES]);

/** Controls a person operates: each needs a name, a target size and keyboard access. */
export const CONTROL_ROLES: ReadonlySet<Role> = new Set([
  'button',
  'checkbox',
  'radio',
  'switch',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'combobox',
  'slider',
  'spinbutton',
  'tab',
]);

/** Roles an agent acts on: controls, text inputs and the items of lists, trees and tab lists. */
export const INTERACTIVE_ROLES: ReadonlySet<Role> = new Set([
  ...CONTROL_ROLES,
  ...TEXT_INPUT_ROLES,
  'option',
  'listitem',
  'treeitem',
]);

/** Controls that are their own Tab stop; radios and tabs take one stop per group, menu items none. */
export const TAB_STOP_ROLES: ReadonlySet<Role> = new Set([
  'button',
  'checkbox',
  'switch',
  'link',
  'combobox',
  'slider',
  'spinbutton',
  ...TEXT_INPUT_ROLES,
]);

/** Controls that take one Tab stop per group. */
export const GROUPED_TAB_STOP_ROLES: ReadonlySet<Role> = new Set(['radio', 'tab']);

/** Text a person reads, whose contrast is measured. */
export const READ_TEXT_ROLES: ReadonlySet<Role> = new Set(['text', 'heading', 'link', 'paragraph']);

/** The ARIA roles whose name may come from their content; a textbox's or a window's never does. */
export const NAMED_FROM_CONTENT_ROLES: ReadonlySet<Role> = new Set([
  'button',
  'checkbox',
  'radio',
  'switch',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'option',
  'treeitem',
  'row',
  'cell',
  'columnheader',
  'rowheader',
  'heading',
  'tooltip',
]);
