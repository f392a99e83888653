/** UI patterns and app states read from made-up trees shaped like AT-SPI's, and the snapshot header line. */
import { describe, expect, it } from 'vitest';
import type { UiReading } from '../../../../src/engine/kernel/results.js';
import { BUSY, readScreenText, readUi } from '../../../../src/engine/reading/patterns.js';
import { readingLine } from '../../../../src/engine/render/snapshot.js';
import { RefTable } from '../../../../src/engine/kernel/refs.js';
import { annotate, type Walked } from '../../../../src/engine/kernel/tree.js';
import { createEngine } from '../../../../src/engine/index.js';
import { type ElementNode, HelperErrorCode } from '../../../../src/helper-client/protocol.js';
import { FakeHelper } from '../fake-helper.js';
import { el, runningApps } from '../fixtures.js';

const walked = (node: ElementNode): Walked =>
  annotate({ node, path: { app: 'app', segments: [] }, app: { pid: 4242, name: 'app' } }, new RefTable());
const app = (...frames: ElementNode[]) => el('application', 'app', {}, frames);
const read = (node: ElementNode): UiReading => readUi(walked(node));
const patterns = (node: ElementNode) => read(node).patterns.map((p) => p.pattern);
/** Each suggested step as `part tool label`, for the first pattern named `name`. */
const steps = (reading: UiReading, name: string) =>
  reading.patterns
    .find((p) => p.pattern === name)
    ?.steps.map((s) =>
      s.node
        ? `${s.part} ${s.tool} ${s.node.role} ${JSON.stringify(s.node.info.name)}`
        : `${s.part} ${s.tool} ${JSON.stringify(s.words.text)}`,
    );

const button = (name: string, extra = {}) => el('push button', name, extra);
const entry = (name = '', extra = {}) => el('text', name, { states: ['editable', 'focusable'], ...extra });
const password = (name = '') => el('password text', name, { states: ['editable'] });
const label = (name: string) => el('label', name);
/** A line OCR read, its words split on spaces (boxes do not matter to the rules). */
const screenLine = (text: string) => {
  const bounds = { x: 0, y: 0, width: 10, height: 10 };
  const words = text.split(' ').map((word) => ({ text: word, bounds, confidence: 0.9 }));
  return { text, bounds, confidence: 0.9, words };
};
const editor = () => el('text', '', { states: ['editable', 'multiline'] });

describe('patterns', () => {
  it('login_form: a password field with a user field or a sign-in button', () => {
    const login = app(
      el('frame', 'Welcome', {}, [
        entry('Username'),
        password('Password'),
        button('Sign In'),
        button('Cancel'),
      ]),
    );
    const reading = read(login);
    expect(reading.patterns.map((p) => p.pattern)).toEqual(['login_form']);
    expect(steps(reading, 'login_form')).toEqual([
      'user set_value textbox "Username"',
      'password set_value textbox "Password"',
      'submit click_element button "Sign In"',
    ]);
    expect(reading.state).toBe('auth_required');
    // A lone password prompt with OK is a form, not a login.
    const prompt = app(
      el('dialog', '', {}, [label('Password:'), password(), button('Cancel'), button('OK')]),
    );
    expect(patterns(prompt)).toEqual(['form']);
  });

  it('file_save_dialog and file_open_dialog: Save or Open, Cancel and a file list', () => {
    const chooser = (action: string) =>
      app(
        el('frame', 'Untitled 1 - Mousepad', {}, [editor()]),
        el('dialog', `${action} File`, { states: ['modal'] }, [
          el('file chooser', 'File Chooser Widget', {}, [
            entry('Name:'),
            el('table', 'Files', {}, [el('table column header', 'Name'), el('table cell', 'a.txt')]),
          ]),
          button('Cancel'),
          button(action, { states: ['disabled'] }),
        ]),
      );
    const saving = read(chooser('Save'));
    expect(saving.patterns.map((p) => p.pattern)).toEqual(['file_save_dialog', 'table_view', 'text_editor']);
    expect(steps(saving, 'file_save_dialog')).toEqual([
      'name set_value textbox "Name:"',
      'save click_element button "Save"',
      'cancel click_element button "Cancel"',
    ]);
    expect(saving.state).toBe('modal_dialog');
    expect(patterns(chooser('Open'))).toEqual(['file_open_dialog', 'table_view', 'text_editor']);
  });

  it('macOS: a sheet inside its window is read on its own; a compact save panel has a "Save As:" field', () => {
    const sheet = (...children: ElementNode[]) =>
      el('AXApplication', 'TextEdit', {}, [
        el('AXMenuBar', ''),
        el('AXWindow', 'Untitled', {}, [
          el('AXScrollArea', '', {}, [el('AXTextArea', '', { states: ['editable', 'multiline'] })]),
          el('AXSheet', '', {}, children),
        ]),
      ]);
    const saving = read(
      sheet(
        el('AXTextField', 'Save As:', { states: ['editable'] }),
        el('AXPopUpButton', 'Where'),
        el('AXButton', 'Cancel'),
        el('AXButton', 'Save'),
      ),
    );
    expect(saving.patterns.map((p) => `${p.pattern} in ${p.at.role}`)).toEqual([
      'file_save_dialog in dialog',
      'text_editor in window',
    ]);
    expect(saving.state).toBe('modal_dialog');
    const asking = sheet(
      el('AXStaticText', 'Revert to the saved version?'),
      el('AXButton', 'Cancel'),
      el('AXButton', 'Revert'),
    );
    // Two buttons, one of them the way out: the other confirms, whatever it says.
    expect(patterns(asking)).toEqual(['confirmation_dialog', 'text_editor']);
    expect(steps(read(asking), 'confirmation_dialog')).toEqual([
      'confirm click_element button "Revert"',
      'cancel click_element button "Cancel"',
    ]);
  });

  it('confirmation_dialog: two or three buttons, one to confirm and one to decline, no field', () => {
    const question = app(
      el('dialog', 'Question', {}, [
        el('icon', 'Question'),
        label('Delete it?'),
        button('No'),
        button('Yes'),
      ]),
    );
    const reading = read(question);
    expect(reading.patterns.map((p) => p.pattern)).toEqual(['confirmation_dialog']);
    expect(steps(reading, 'confirmation_dialog')).toEqual([
      'confirm click_element button "Yes"',
      'cancel click_element button "No"',
    ]);
    expect(reading.state).toBe('modal_dialog');
    // Labels no word list knows: the default button confirms, the other declines.
    const custom = read(
      app(
        el('dialog', 'Question', {}, [
          label('Ship the release now?'),
          button('Reject'),
          el('push button', 'Approve', { states: ['focusable', 'default'] }),
        ]),
      ),
    );
    expect(steps(custom, 'confirmation_dialog')).toEqual([
      'confirm click_element button "Approve"',
      'cancel click_element button "Reject"',
    ]);
    // Without a default button, such labels say nothing: no pattern rather than a guess.
    expect(
      patterns(app(el('dialog', 'Question', {}, [label('Ship?'), button('Reject'), button('Approve')]))),
    ).toEqual([]);
    // Four buttons, or only one, is not a yes-or-no question.
    const four = ['Yes', 'No', 'Maybe', 'Later'].map((n) => button(n));
    expect(patterns(app(el('dialog', 'Question', {}, four)))).toEqual([]);
  });

  it('error_alert: one dismiss button where the dialog or its icon or text speaks of an error', () => {
    const error = app(
      el('dialog', 'Error', { states: ['active'] }, [
        el('icon', 'Error'),
        label('Something broke'),
        button('OK'),
      ]),
    );
    const reading = read(error);
    expect(reading.patterns.map((p) => p.pattern)).toEqual(['error_alert']);
    expect(steps(reading, 'error_alert')).toEqual([
      'message get_element text "Something broke"',
      'dismiss click_element button "OK"',
    ]);
    expect(reading.state).toBe('error');
    const info = app(
      el('dialog', 'Information', {}, [el('icon', 'Information'), label('Done'), button('OK')]),
    );
    expect(patterns(info)).toEqual([]);
  });

  it('settings_page: a titled window of toggles and choices', () => {
    const settings = app(
      el('frame', 'Preferences', {}, [
        el('check box', 'Show line numbers'),
        el('check box', 'Wrap lines'),
        el('combo box', 'Theme'),
      ]),
    );
    expect(patterns(settings)).toEqual(['settings_page']);
    // Untitled, it takes more controls than text fields, and six of them.
    const few = app(
      el('frame', 'Main', {}, [el('check box', 'A'), el('check box', 'B'), el('check box', 'C')]),
    );
    expect(patterns(few)).toEqual([]);
  });

  it('search_interface: a search field with results', () => {
    const search = app(
      el('frame', 'Files', {}, [entry('Search'), el('list box', 'Results', {}, [el('list item', 'a.txt')])]),
    );
    const reading = read(search);
    expect(reading.patterns.map((p) => p.pattern)).toEqual(['search_interface']);
    expect(steps(reading, 'search_interface')).toEqual([
      'search type_text textbox "Search"',
      'results snapshot_ui listbox "Results"',
    ]);
  });

  it('table_view: a table, grid or tree with rows', () => {
    const table = app(el('frame', 'Data', {}, [el('tree table', 'Files', {}, [el('table cell', 'a')])]));
    expect(patterns(table)).toEqual(['table_view']);
    expect(patterns(app(el('frame', 'Data', {}, [el('table', 'Empty')])))).toEqual([]);
  });

  it('form: fields and a submit button, or several fields in a dialog', () => {
    const form = app(
      el('dialog', 'Forms dialog', {}, [
        el('panel', 'Forms dialog', {}, [label('Name'), entry(), label('Age'), el('spin button', 'Age')]),
        button('Cancel'),
        button('OK'),
      ]),
    );
    const reading = read(form);
    expect(reading.patterns.map((p) => p.pattern)).toEqual(['form']);
    expect(steps(reading, 'form')).toEqual([
      'field set_value textbox ""',
      'field set_value spinbutton "Age"',
      'submit click_element button "OK"',
    ]);
    // A window's lone field without a submit button is no form.
    expect(patterns(app(el('frame', 'Main', {}, [entry('Name')])))).toEqual([]);
  });

  it('text_editor: an editable multi-line text area in a window, not in a dialog', () => {
    const mousepad = app(
      el('frame', 'Untitled 1 - Mousepad', {}, [
        el('menu bar', '', {}, [el('menu', 'File')]),
        el('page tab list', '', {}, [el('page tab', '', {}, [editor()])]),
      ]),
    );
    const reading = read(mousepad);
    expect(reading.patterns.map((p) => p.pattern)).toEqual(['text_editor']);
    expect(reading.state).toBe('idle');
    // Not editable (a help text, a log), or among a keypad's buttons (a calculator's display): no editor.
    const readOnly = el('text', '', { states: ['readonly', 'multiline'] });
    expect(patterns(app(el('frame', 'Log', {}, [readOnly])))).toEqual([]);
    const view = el('text', '', { states: ['focusable', 'multiline'] });
    expect(patterns(app(el('frame', 'Info', {}, [view])))).toEqual([]);
    const keys = [...'0123456789+-*/'].map((k) => button(k));
    expect(patterns(app(el('frame', 'Calculator', {}, [editor(), ...keys])))).toEqual([]);
    // A word processor's toolbar buttons do not count against it.
    const toolbar = el(
      'tool bar',
      '',
      {},
      [...'BIU0123456789xyz'].map((k) => button(k)),
    );
    const document = el('document text', 'Letter', { states: ['editable'] });
    expect(patterns(app(el('frame', 'Writer', {}, [toolbar, document])))).toEqual(['text_editor']);
  });

  it('browser_main: an address field, tabs and a page', () => {
    const browser = app(
      el('frame', 'Example - Browser', {}, [
        el('page tab list', '', {}, [el('page tab', 'Example')]),
        el('tool bar', '', {}, [entry('Search or enter address')]),
        el('document web', 'Example', {}, [el('heading', 'Example Domain')]),
      ]),
    );
    const reading = read(browser);
    expect(reading.patterns.map((p) => p.pattern)).toEqual(['browser_main']);
    expect(steps(reading, 'browser_main')).toEqual([
      'address type_text textbox "Search or enter address"',
      'page snapshot_ui document "Example"',
    ]);
  });

  it('progress_indicator: a progress bar or a busy element, which makes the app loading', () => {
    const progress = app(
      el('dialog', 'Copying', {}, [label('Copying files'), el('progress bar', ''), button('Cancel')]),
    );
    const reading = read(progress);
    expect(reading.patterns.map((p) => p.pattern)).toEqual(['progress_indicator']);
    expect(reading.state).toBe('loading');
    const busy = app(el('frame', 'Main', {}, [el('panel', 'Content', { states: ['busy'] })]));
    expect(read(busy).state).toBe('loading');
  });

  it('offscreen elements count for nothing', () => {
    const hidden = app(el('frame', 'Main', {}, [el('progress bar', '', { states: ['offscreen'] })]));
    expect(read(hidden)).toMatchObject({ patterns: [], state: 'idle' });
  });

  it('a subtree is read as one scope: a dialog snapshot by ref', () => {
    const dialog = el('dialog', 'Question', {}, [button('Cancel'), button('OK')]);
    expect(patterns(dialog)).toEqual(['confirmation_dialog']);
  });
});

describe('states', () => {
  it("an app's state reads its tree; busy when the app does not answer a one-element read in time", async () => {
    const { app: mousepad } = runningApps();
    const helper = new FakeHelper([mousepad]);
    const engine = createEngine(helper);
    // The fixture's mousepad shows an editor and an "Unlock" dialog with a password field and OK.
    const state = await engine.states.of('mousepad');
    expect(state.ui.patterns.map((p) => p.pattern)).toEqual(['form', 'text_editor']);
    // Titled "Unlock": a dialog that asks to sign in.
    expect(state.ui.state).toBe('auth_required');
    helper.failWith = { method: 'ax.element', code: HelperErrorCode.Timeout, message: 'no answer' };
    expect((await engine.states.of('mousepad')).ui).toBe(BUSY);
    const probe = helper.calls.filter((c) => c.method === 'ax.element').at(-1);
    expect(probe?.params).toEqual({ id: 'app', maxValueLength: 0 });
  });

  it('error: an error alert, or a status bar that reports a failure', () => {
    const status = app(
      el('frame', 'Main', {}, [el('status bar', '', {}, [label('Build failed: 2 errors')])]),
    );
    expect(read(status).state).toBe('error');
    expect(read(status).because).toContain('text "Build failed: 2 errors"');
  });

  it('auth_required: a login form, or a dialog titled for signing in', () => {
    const signIn = app(
      el('frame', 'Main'),
      el('dialog', 'Authentication required', {}, [label('Enter your token'), button('OK')]),
    );
    expect(read(signIn).state).toBe('auth_required');
  });

  it('loading: progress, or text that says it is loading', () => {
    expect(read(app(el('frame', 'Main', {}, [label('Loading messages…')]))).state).toBe('loading');
  });

  it('modal_dialog: a modal window, or any dialog of an app', () => {
    const modal = app(
      el('frame', 'Main'),
      el('frame', 'Pick a colour', { states: ['modal'] }, [button('OK')]),
    );
    expect(read(modal)).toMatchObject({ state: 'modal_dialog' });
    expect(read(app(el('frame', 'Main'), el('dialog', 'About')))).toMatchObject({ state: 'modal_dialog' });
  });

  it('idle: none of those', () => {
    expect(read(app(el('frame', 'Main', {}, [button('Go')])))).toMatchObject({ patterns: [], state: 'idle' });
  });

  it('from screen text where the tree is empty (what OCR reads stands in)', () => {
    const empty = walked(app());
    const screen = (...texts: string[]) => readUi(empty, { screenText: texts.map(screenLine) });
    expect(screen('Connection failed').state).toBe('error');
    expect(screen('Sign in to continue').state).toBe('auth_required');
    expect(screen('Loading…').state).toBe('loading');
    expect(screen('Welcome')).toMatchObject({ patterns: [], state: 'idle' });
    // A tree with elements is read as a tree; so is an empty element that is not an app.
    expect(readUi(walked(app(el('frame', 'Main'))), { screenText: [screenLine('Error')] }).state).toBe(
      'idle',
    );
    expect(readUi(walked(button('Error')), { screenText: [screenLine('Error')] }).state).toBe('idle');
  });

  it('from screen text: a confirmation and an error alert by their words, steps clicking the words', () => {
    const empty = walked(app());
    const question = readScreenText(empty, ['Delete file?', 'Cancel', 'Delete'].map(screenLine));
    expect(question).toMatchObject({
      state: 'modal_dialog',
      because: 'the screen shows a confirmation "Delete file?" with the buttons "Delete" and "Cancel"',
    });
    expect(steps(question, 'confirmation_dialog')).toEqual([
      'confirm click "Delete"',
      'cancel click "Cancel"',
    ]);
    expect(question.patterns[0]?.at).toBe(empty);
    // Buttons read as one line of words (one row) are each a button.
    const row = readScreenText(empty, [screenLine('Replace the file?'), screenLine('Cancel Replace')]);
    expect(steps(row, 'confirmation_dialog')).toEqual(['confirm click "Replace"', 'cancel click "Cancel"']);
    const alert = readScreenText(empty, ['Could not save "notes.txt"', 'Disk is full', 'OK'].map(screenLine));
    expect(alert).toMatchObject({
      state: 'error',
      because: 'the screen reads "Could not save \\"notes.txt\\""',
    });
    expect(steps(alert, 'error_alert')).toEqual(['dismiss click "OK"']);
  });

  it('from screen text: no dialog from a message with no buttons, a lone OK, or a window full of text', () => {
    const empty = walked(app());
    const patternsOf = (...texts: string[]) =>
      readScreenText(empty, texts.map(screenLine)).patterns.map((p) => p.pattern);
    expect(patternsOf('Delete file?')).toEqual([]);
    expect(patternsOf('All done', 'OK')).toEqual([]);
    const page = ['Chapter 1', 'It was a dark night.', 'Cancel', 'Delete', ...Array(8).fill('More text')];
    expect(patternsOf(...page)).toEqual([]);
  });
});

describe('readingLine', () => {
  it('one short line with each pattern and the refs of its steps, then the state', () => {
    const question = walked(app(el('dialog', 'Question', {}, [button('No'), button('Yes')])));
    expect(readingLine(readUi(question))).toBe(
      'UI: confirmation_dialog (confirm e4, cancel e3); state: modal_dialog',
    );
  });

  it('nothing when nothing is recognised and the app is idle; the state alone when only it says something', () => {
    expect(readingLine(read(app(el('frame', 'Main'))))).toBeUndefined();
    expect(readingLine(BUSY)).toBe('UI state: busy');
  });
});
