/**
 * What kind of screen an app shows and what state it is in, read from a walked tree: pure rules over the
 * elements of each top-level window or dialog (a login form, a save dialog, a table...), each pattern with the
 * refs an agent would use next. Purely informative: nothing here acts. Where the tree is empty (a canvas, a
 * remote desktop) the lines OCR reads off the app's window stand in for it: states and dialogs from their words,
 * with the words to click instead of refs.
 */
import type { ElementState } from '../../helper-client/protocol.js';
import { normalizeName } from '../../text.js';
import type { ScreenLine, ScreenWord } from '../kernel/screen-lines.js';
import { isSecure, labelOf, type Walked } from '../kernel/tree.js';
import {
  WINDOW_ROLES,
  TEXT_INPUT_ROLES,
  SETTING_ROLES,
  FORM_INPUT_ROLES,
  COLLECTION_ROLES,
  TABLE_ROLES,
} from '../kernel/roles.js';
import type { UiPattern, Suggestion, DetectedPattern, UiReading } from '../kernel/results.js';

export interface ReadOptions {
  /** What OCR read in the app's window; used only for an app whose tree has nothing below its root. */
  screenText?: readonly ScreenLine[];
}

/** An app whose walk found nothing below it (no accessibility, a canvas): only the screen tells what it shows. */
export const isBlankApp = (tree: Walked): boolean =>
  tree.role === 'application' && tree.children.length === 0;

const words = (...alternatives: string[]) => new RegExp(`^(${alternatives.join('|')})$`, 'i');
const AFFIRM = words(
  'ok',
  'yes',
  'confirm',
  'continue',
  'delete',
  'remove',
  'discard',
  'replace',
  'allow',
  'accept',
  'proceed',
  'quit',
  'close without saving',
  "don't save",
  'apply',
);
const DECLINE = words('cancel', 'no', 'deny', 'keep', 'go back', 'back');
const DISMISS = words('ok', 'close', 'dismiss', 'done', 'got it');
const SUBMIT = words(
  'ok',
  'submit',
  'save',
  'apply',
  'done',
  'continue',
  'send',
  'create',
  'add',
  'next',
  'finish',
  'search',
  'go',
);
const SIGN_IN = /^(sign ?in|log ?in|login|log on|unlock|authenticate|connect)$/i;
const SAVE = words('save', 'save as', 'export');
const OPEN = words('open', 'choose', 'select', 'import');
const ERROR_WORDS = /\b(error|failed|failure|fatal|critical|warning|could not|cannot|can't|unable)\b/i;
const STATUS_ERROR = /\b(error|failed)\b/i;
const USER_FIELD = /\b(user(name)?|e-?mail|login|account|id)\b/i;
const FILE_NAME_FIELD = /^(save as|export as|file ?name)\b/i;
const SEARCH_FIELD = /\b(search|find|filter|query)\b/i;
const ADDRESS_FIELD = /\b(address|url|location|search or (enter|type))\b/i;
const SETTINGS_TITLE = /\b(settings|preferences|options|properties|configuration)\b/i;
const AUTH_TITLE = /\b(sign ?in|log ?in|authenticat\w*|password required|unlock)\b/i;
const LOADING_TEXT = /^(loading|please wait|connecting|downloading)\b/i;

const nameOf = (node: Walked): string => normalizeName(node.info.name);
const has = (node: Walked, state: ElementState): boolean => node.info.states.includes(state);
const editable = (node: Walked): boolean => !has(node, 'readonly') && !has(node, 'disabled');
const visible = (node: Walked): boolean => !has(node, 'offscreen');

/** The elements of one window or dialog, grouped by what the rules ask about. */
interface Scope {
  root: Walked;
  nodes: Walked[];
  buttons: Walked[];
  /** Buttons outside toolbars: a keypad has dozens, an editor's window a few. */
  looseButtons: number;
  fields: Walked[];
  editors: Walked[];
  collections: Walked[];
}

/** The element and its descendants on screen, in document order (a loop: recursive generators cost here). */
function visibleNodes(root: Walked, sheets?: Walked[]): Walked[] {
  const found: Walked[] = [];
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!visible(node)) continue;
    if (sheets && node !== root && isSheet(node)) {
      sheets.push(node);
      continue;
    }
    found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as Walked);
  }
  return found;
}

/** A macOS sheet: a dialog attached inside its window, read as a scope of its own. */
const isSheet = (node: Walked): boolean => node.info.nativeRole === 'AXSheet';

/** A scope's elements; the sheets met inside it are left out and added to `sheets`. */
function scopeOf(root: Walked, sheets?: Walked[]): Scope {
  const nodes = visibleNodes(root, sheets);
  const inputs = nodes.filter((n) => TEXT_INPUT_ROLES.has(n.role) && editable(n));
  const buttons = nodes.filter((n) => n.role === 'button');
  const inToolbars = new Set(nodes.filter((n) => n.role === 'toolbar').flatMap((node) => visibleNodes(node)));
  return {
    root,
    nodes,
    buttons,
    looseButtons: buttons.filter((b) => !inToolbars.has(b)).length,
    fields: inputs.filter((n) => !has(n, 'multiline')),
    // A text view that is not editable (a help text, a log) is no editor.
    editors: nodes.filter(
      (n) =>
        ((TEXT_INPUT_ROLES.has(n.role) && has(n, 'multiline')) || n.role === 'document') &&
        has(n, 'editable') &&
        !isSecure(n.info),
    ),
    collections: nodes.filter((n) => COLLECTION_ROLES.has(n.role)),
  };
}

/** The windows and dialogs of an app's walk, or the walked element itself when it is not an app. */
function scopesOf(tree: Walked): Scope[] {
  const frames =
    tree.role === 'application' ? tree.children.filter((c) => WINDOW_ROLES.has(c.role) && visible(c)) : [];
  const roots = frames.length > 0 ? frames : [tree];
  const scopes: Scope[] = [];
  for (let root = roots.shift(); root; root = roots.shift()) scopes.push(scopeOf(root, roots));
  return scopes;
}

const button = (scope: Scope, names: RegExp): Walked | undefined =>
  scope.buttons.find((b) => names.test(nameOf(b)));
const step = (part: string, action: string, tool: string, node: Walked): Suggestion => ({
  part,
  action,
  tool,
  node,
});
const click = (part: string, what: string, node: Walked | undefined): Suggestion[] =>
  node ? [step(part, `click ${labelOf(node.role, node.info.name)} to ${what}`, 'click_element', node)] : [];
const isDialog = (scope: Scope): boolean => scope.root.role === 'dialog' || scope.root.role === 'alert';

/** A file chooser: a platform file chooser, a list of files, or a field for the file's name (a compact panel). */
function fileBrowser(scope: Scope): boolean {
  const chooser = scope.nodes.some((n) => /file chooser|AXBrowser|AXOutline/i.test(n.info.nativeRole));
  const files = scope.collections.some((c) => /\bfiles?\b/i.test(nameOf(c)) || TABLE_ROLES.has(c.role));
  return chooser || files || scope.fields.some((f) => FILE_NAME_FIELD.test(nameOf(f)));
}

function nameField(scope: Scope): Walked | undefined {
  return scope.fields.find((f) => /\b(name|save as|file)\b/i.test(nameOf(f))) ?? scope.fields[0];
}

/**
 * A question's two answers, read from its structure: the default button (the one Enter presses) confirms, and of
 * two buttons the other declines. Words settle what structure leaves open: a toolkit that marks no default, or a
 * third button.
 */
function confirmationButtons(buttons: readonly Walked[]): { affirm?: Walked; decline?: Walked } {
  const marked = buttons.filter((b) => has(b, 'default'));
  const byDefault = marked.length === 1 ? marked[0] : undefined;
  const rest = buttons.filter((b) => b !== byDefault);
  const decline =
    rest.find((b) => DECLINE.test(nameOf(b))) ?? (byDefault && rest.length === 1 ? rest[0] : undefined);
  const others = buttons.filter((b) => b !== decline);
  const affirm =
    byDefault ?? others.find((b) => AFFIRM.test(nameOf(b))) ?? (others.length === 1 ? others[0] : undefined);
  return { affirm, decline };
}

/** More buttons than this outside toolbars, and a multi-line field is a keypad's display, not an editor. */
const MAX_EDITOR_BUTTONS = 12;

type Rule = (scope: Scope, found: ReadonlySet<UiPattern>) => Suggestion[] | undefined;

const RULES: ReadonlyArray<[UiPattern, Rule]> = [
  [
    'login_form',
    (scope) => {
      const password = scope.fields.find((f) => isSecure(f.info));
      if (!password) return undefined;
      const user = scope.fields.find((f) => f !== password && !isSecure(f.info));
      const signIn = button(scope, SIGN_IN);
      if (!signIn && !(user && USER_FIELD.test(nameOf(user)))) return undefined;
      return [
        ...(user ? [step('user', 'type the user name (ask the user for it)', 'set_value', user)] : []),
        step('password', 'type the password (ask the user for it; never guess)', 'set_value', password),
        ...click('submit', 'sign in', signIn ?? button(scope, SUBMIT)),
      ];
    },
  ],
  [
    'file_save_dialog',
    (scope) => {
      const save = button(scope, SAVE);
      if (!save || !button(scope, DECLINE) || !fileBrowser(scope)) return undefined;
      const name = nameField(scope);
      return [
        ...(name ? [step('name', 'type the file name', 'set_value', name)] : []),
        ...click('save', 'save', save),
        ...click('cancel', 'close the dialog without saving', button(scope, DECLINE)),
      ];
    },
  ],
  [
    'file_open_dialog',
    (scope) => {
      const open = button(scope, OPEN);
      if (!open || !button(scope, DECLINE) || !fileBrowser(scope)) return undefined;
      const files = scope.collections.find((c) => TABLE_ROLES.has(c.role)) ?? scope.collections[0];
      return [
        ...(files ? [step('files', 'read the files to pick one', 'snapshot_ui', files)] : []),
        ...click('open', 'open the selected file', open),
        ...click('cancel', 'close the dialog', button(scope, DECLINE)),
      ];
    },
  ],
  [
    'confirmation_dialog',
    (scope, found) => {
      if (!isDialog(scope) || found.has('file_save_dialog') || found.has('file_open_dialog'))
        return undefined;
      if (scope.fields.length > 0 || scope.buttons.length < 2 || scope.buttons.length > 3) return undefined;
      const { affirm, decline } = confirmationButtons(scope.buttons);
      if (!affirm || !decline) return undefined;
      return [...click('confirm', 'confirm', affirm), ...click('cancel', 'decline', decline)];
    },
  ],
  [
    'error_alert',
    (scope) => {
      if (!isDialog(scope) || scope.fields.length > 0 || scope.buttons.length !== 1) return undefined;
      const dismiss = button(scope, DISMISS);
      const said = [scope.root, ...scope.nodes.filter((n) => n.role === 'image' || n.role === 'text')];
      if (!dismiss || !said.some((n) => ERROR_WORDS.test(nameOf(n)))) return undefined;
      const message = scope.nodes.find((n) => n.role === 'text' && nameOf(n) !== '');
      return [
        ...(message ? [step('message', 'read the message', 'get_element', message)] : []),
        ...click('dismiss', 'dismiss the alert', dismiss),
      ];
    },
  ],
  [
    'settings_page',
    (scope) => {
      const controls = scope.nodes.filter((n) => SETTING_ROLES.has(n.role));
      const titled = SETTINGS_TITLE.test(nameOf(scope.root));
      if (controls.length < (titled ? 2 : 6) || controls.length < scope.fields.length) return undefined;
      return [step('controls', 'read the settings', 'snapshot_ui', scope.root)];
    },
  ],
  [
    'search_interface',
    (scope) => {
      const field =
        scope.nodes.find((n) => n.role === 'searchbox' && editable(n)) ??
        scope.fields.find((f) => SEARCH_FIELD.test(`${nameOf(f)} ${f.info.description ?? ''}`));
      const results = scope.collections.find((c) => c !== field);
      if (!field || !results) return undefined;
      return [
        step('search', 'type what to search for (submit: true to run it)', 'type_text', field),
        step('results', 'read the results', 'snapshot_ui', results),
      ];
    },
  ],
  [
    'table_view',
    (scope) => {
      const table = scope.collections.find(
        (c) => TABLE_ROLES.has(c.role) && (c.children.length > 0 || c.info.childCount > 0),
      );
      return table ? [step('table', 'read its rows', 'snapshot_ui', table)] : undefined;
    },
  ],
  [
    'form',
    (scope, found) => {
      if (['login_form', 'file_save_dialog', 'file_open_dialog'].some((p) => found.has(p as UiPattern)))
        return undefined;
      const inputs = scope.nodes.filter(
        (n) => FORM_INPUT_ROLES.has(n.role) && editable(n) && !has(n, 'multiline'),
      );
      const submit = button(scope, SUBMIT);
      if (inputs.length === 0 || (inputs.length < 2 && !submit) || (!submit && !isDialog(scope)))
        return undefined;
      const fields = inputs.slice(0, 3).map((f) => step('field', 'fill it in', 'set_value', f));
      return [...fields, ...click('submit', 'submit the form', submit)];
    },
  ],
  [
    'text_editor',
    (scope) => {
      if (isDialog(scope) || scope.looseButtons > MAX_EDITOR_BUTTONS) return undefined;
      const editor = scope.editors[0];
      return editor
        ? [step('editor', 'type into it (set_value replaces all its text)', 'type_text', editor)]
        : undefined;
    },
  ],
  [
    'browser_main',
    (scope) => {
      const page = scope.nodes.find((n) => n.role === 'document');
      const address = scope.nodes.find(
        (n) => (TEXT_INPUT_ROLES.has(n.role) || n.role === 'combobox') && ADDRESS_FIELD.test(nameOf(n)),
      );
      const tabs = scope.nodes.some((n) => n.role === 'tablist' || n.role === 'tab');
      if (!page || !address || !tabs) return undefined;
      return [
        step('address', 'type an address (submit: true to go)', 'type_text', address),
        step('page', 'read the page', 'snapshot_ui', page),
      ];
    },
  ],
  [
    'progress_indicator',
    (scope) => {
      const progress = scope.nodes.find((n) => n.role === 'progressbar' || has(n, 'busy'));
      return progress
        ? [step('progress', 'wait until it is gone (condition "gone")', 'wait_for', progress)]
        : undefined;
    },
  ],
];

/** An app that did not answer a quick accessibility query in time: its tree says nothing. */
export const BUSY: UiReading = {
  patterns: [],
  state: 'busy',
  because: 'the app did not answer an accessibility query in time',
};

/** Patterns shown at most: dialogs come first, so the most pressing survive the cut. */
export const MAX_PATTERNS = 6;

/** The patterns in a walked tree (an app, a window, a subtree) and the state they put the app in. */
export function readUi(tree: Walked, options: ReadOptions = {}): UiReading {
  if (isBlankApp(tree) && options.screenText && options.screenText.length > 0) {
    return readScreenText(tree, options.screenText);
  }
  const scopes = scopesOf(tree);
  // Dialogs first: what blocks the app is what an agent meets first.
  scopes.sort((a, b) => Number(isDialog(b)) - Number(isDialog(a)));
  const patterns: DetectedPattern[] = [];
  for (const scope of scopes) {
    const found = new Set<UiPattern>();
    for (const [pattern, rule] of RULES) {
      const steps = rule(scope, found);
      if (!steps) continue;
      found.add(pattern);
      patterns.push({ pattern, at: scope.root, steps });
    }
  }
  return { patterns: patterns.slice(0, MAX_PATTERNS), ...stateOf(tree, scopes, patterns) };
}

function stateOf(
  tree: Walked,
  scopes: readonly Scope[],
  patterns: readonly DetectedPattern[],
): Pick<UiReading, 'state' | 'because'> {
  const seen = (p: UiPattern) => patterns.find((d) => d.pattern === p);
  const where = (node: Walked) => `${labelOf(node.role, node.info.name)} [ref=${node.ref}]`;
  const error = seen('error_alert');
  if (error) return { state: 'error', because: `an error alert is open: ${where(error.at)}` };
  const statusError = scopes
    .flatMap((s) => s.nodes.filter((n) => n.role === 'statusbar'))
    .flatMap((node) => visibleNodes(node))
    .find((n) => STATUS_ERROR.test(`${nameOf(n)} ${typeof n.info.value === 'string' ? n.info.value : ''}`));
  if (statusError)
    return { state: 'error', because: `the status bar reports an error: ${where(statusError)}` };
  const login = seen('login_form');
  if (login) return { state: 'auth_required', because: `a login form is shown in ${where(login.at)}` };
  const auth = scopes.find((s) => isDialog(s) && AUTH_TITLE.test(nameOf(s.root)));
  if (auth) return { state: 'auth_required', because: `a sign-in dialog is open: ${where(auth.root)}` };
  const progress = seen('progress_indicator')?.steps[0];
  if (progress?.node) return { state: 'loading', because: `progress is shown: ${where(progress.node)}` };
  const loading = scopes
    .flatMap((s) => s.nodes)
    .find((n) => n.role === 'text' && LOADING_TEXT.test(nameOf(n)));
  if (loading) return { state: 'loading', because: `it says ${JSON.stringify(nameOf(loading))}` };
  const modal =
    scopes.find((s) => has(s.root, 'modal')) ??
    (tree.role === 'application' ? scopes.find((s) => isDialog(s)) : undefined);
  if (modal) return { state: 'modal_dialog', because: `a dialog is open: ${where(modal.root)}` };
  return { state: 'idle', because: 'no dialog, progress or error is shown' };
}

/** A dialog's words fit in this many lines; a window's page of text is no dialog. */
const MAX_DIALOG_LINES = 8;

const isButtonLabel = (text: string): boolean =>
  [AFFIRM, DECLINE, DISMISS].some((names) => names.test(normalizeName(text)));

/** Words that read as buttons: a line that is one button's label, or a row of labels (every word is one). */
function buttonLabels(lines: readonly ScreenLine[]): ScreenWord[] {
  return lines.flatMap((line) => {
    if (isButtonLabel(line.text)) return [line];
    const row = line.words.length > 1 && line.words.every((word) => isButtonLabel(word.text));
    return row ? line.words : [];
  });
}

function clickWords(part: string, what: string, words: ScreenWord): Suggestion {
  const { x, y, width, height } = words.bounds;
  const point = { x: Math.round(x + width / 2), y: Math.round(y + height / 2) };
  const action = `click at ${point.x},${point.y}, on the words ${JSON.stringify(words.text)}, to ${what}`;
  return { part, action, tool: 'click', words, point };
}

/**
 * A confirmation or an error alert drawn without accessibility, from the labels of its buttons and the other
 * lines (`said`). Only a few lines: a window full of text with an OK in it is no dialog.
 */
function screenPatterns(
  tree: Walked,
  labels: readonly ScreenWord[],
  said: readonly ScreenLine[],
): DetectedPattern[] {
  if (labels.length + said.length > MAX_DIALOG_LINES || labels.length === 0 || labels.length > 3) return [];
  const named = (names: RegExp) => labels.find((label) => names.test(normalizeName(label.text)));
  if (labels.length === 1) {
    const dismiss = named(DISMISS);
    if (!dismiss || !said.some((line) => ERROR_WORDS.test(line.text))) return [];
    return [
      { pattern: 'error_alert', at: tree, steps: [clickWords('dismiss', 'dismiss the alert', dismiss)] },
    ];
  }
  const decline = named(DECLINE);
  // The label that is not the way out confirms, when there are only two.
  const others = labels.filter((label) => label !== decline);
  const affirm =
    others.find((label) => AFFIRM.test(normalizeName(label.text))) ??
    (others.length === 1 ? others[0] : undefined);
  if (!decline || !affirm) return [];
  const steps = [clickWords('confirm', 'confirm', affirm), clickWords('cancel', 'decline', decline)];
  return [{ pattern: 'confirmation_dialog', at: tree, steps }];
}

/** An app's patterns and state from the words on its screen, when its tree has none: steps click words. */
export function readScreenText(tree: Walked, lines: readonly ScreenLine[]): UiReading {
  const labels = buttonLabels(lines);
  const said = lines.filter((line) => !labels.includes(line) && !line.words.some((w) => labels.includes(w)));
  const patterns = screenPatterns(tree, labels, said);
  const seen = (p: UiPattern) => patterns.find((d) => d.pattern === p);
  const saying = (pattern: RegExp) => said.find((line) => pattern.test(line.text));
  const reads = (line: ScreenLine | undefined) => line && `the screen reads ${JSON.stringify(line.text)}`;
  const error = reads(seen('error_alert') ? saying(ERROR_WORDS) : saying(STATUS_ERROR));
  if (error) return { patterns, state: 'error', because: error };
  const auth = reads(saying(AUTH_TITLE) ?? saying(/\bpassword\b/i));
  if (auth) return { patterns, state: 'auth_required', because: auth };
  const loading = reads(saying(LOADING_TEXT));
  if (loading) return { patterns, state: 'loading', because: loading };
  const confirmation = seen('confirmation_dialog');
  if (confirmation) {
    const buttons = confirmation.steps.map((step) => JSON.stringify(step.words?.text)).join(' and ');
    const question = said[0] ? ` ${JSON.stringify(said[0].text)}` : '';
    const because = `the screen shows a confirmation${question} with the buttons ${buttons}`;
    return { patterns, state: 'modal_dialog', because };
  }
  return { patterns, state: 'idle', because: 'the screen text shows no dialog, progress or error' };
}
