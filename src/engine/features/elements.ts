/**
 * The ui feature: read the accessibility tree (snapshots, searches, one element, the focused one, the one at a
 * point) and act on its elements (click, perform an action, set a value, focus).
 */
import { MacpilotError } from '../../errors.js';
import type { ElementDetail, ElementInfo, ElementNode, ElementValue } from '../../helper-client/protocol.js';
import { clickAction, matchAction } from '../kernel/actions.js';
import { findMatches, FIND_DEFAULTS, matchedByDescriptionAlone, type MatchMode } from '../reading/find.js';
import type { Prepared } from '../kernel/changes.js';
import { awaitsText, type ClickOptions, type Input, typingNeeded } from './input.js';
import { entryLine, type Kernel, type Target, type WalkLimits, type WalkStart } from '../kernel/kernel.js';
import { pause } from '../kernel/observer.js';
import { childPath, parsePath, segmentFor } from '../kernel/paths.js';
import { HelperError, type CallOptions } from '../../helper-client/errors.js';
import type { RefEntry } from '../kernel/refs.js';
import type {
  ActionResult,
  Change,
  ElementResult,
  LocatedResult,
  MatchesResult,
  SnapshotResult,
} from '../kernel/results.js';
import { COLLECTION_ITEM_ROLES, MENU_ITEM_ROLES, MENU_ROLES, parseRole, roleOf } from '../kernel/roles.js';
import { labelOf, nameFilterOf, SNAPSHOT_DEFAULTS, type Walked } from '../kernel/tree.js';
import { duration, matchTitle, plural } from '../../text.js';
import type { UiReader } from './ui-reading.js';
import type { Menus } from './menus.js';
import { joinNames } from '../../menu-path.js';

/** A menu bar's item's ancestors that make its menu path: GTK's menus (a menu item with a submenu is a menu). */
const MENU_PATH_ROLES: ReadonlySet<string> = new Set(['menu', 'menuitem']);
import { appText, entryWords, own, words } from '../kernel/words.js';
import { dialogInActionNote, modalOpened } from '../kernel/dialogs-in-actions.js';
import { MENU_CHOICE_QUIET_MS } from '../kernel/changes.js';

export interface SnapshotOptions {
  app?: string;
  /** A window title (or part of it) or its index among the app's windows. */
  window?: string | number;
  ref?: string;
  depth?: number;
  roles?: string[];
  maxNodes?: number;
  includeHidden?: boolean;
}

export interface FindOptions {
  app?: string;
  text?: string;
  role?: string;
  name?: string;
  value?: string;
  identifier?: string;
  match?: MatchMode;
  within?: string;
  maxResults?: number;
  includeHidden?: boolean;
}

/**
 * A real click that closed a popup of the app (GTK's completion list under a field, an open menu): a desktop
 * toolkit's popup takes the first click made outside it, so the element clicked was most likely not pressed,
 * whatever else changed meanwhile (GTK's file chooser refreshes its sidebar); a web page's popup lets the click
 * through, so there only a click whose one effect was closing it is told. The answer says so, for it says the
 * element was clicked.
 */
export function withPopupClosed(result: ActionResult, web: boolean): ActionResult {
  if (result.kind !== 'action' || result.outcome?.kind !== 'changes' || !result.target) return result;
  const { changes } = result.outcome;
  const target = result.target;
  const closedWindow = (c: (typeof changes)[number]): boolean =>
    c.kind === 'closed' &&
    (c.node.role === 'window' || c.node.role === 'menu') &&
    !target.path.startsWith(c.node.path);
  // Among other changes, a popup is a menu or a window without a title.
  const closedPopup = (c: (typeof changes)[number]): boolean =>
    closedWindow(c) && (c.node.role === 'menu' || c.node.info.name === '');
  const popup =
    changes.length > 0 && changes.every(closedWindow)
      ? changes[0]?.node
      : web
        ? undefined
        : changes.find(closedPopup)?.node;
  if (!popup) return result;
  const label = labelOf(popup.role, popup.info.name);
  return {
    ...result,
    done: words`${result.done} ${own('The click closed the app’s popup')} ${entryWords({ label, ref: popup.ref, path: popup.path })}${own(', which takes the first click made outside it while it is open: the element was most likely not pressed. Click it again if what it does did not happen.')}`,
  };
}

/** A web page's element: browsers give theirs the HTML tag they come from; their actions run no modal loop. */
const isWeb = (detail: ElementDetail): boolean => detail.attributes.tag !== undefined;

/** The helper walks more nodes than a snapshot shows lines: collapsed chrome takes no line. */
const WALK_PER_LINE = 3;
const WALK_MAX_NODES = 50_000;
const DETAIL_VALUE_CHARS = 100_000;
/** How long a click waits for a disabled control to be enabled, and how often it looks. */
const ENABLE_WAIT_MS = 1_000;
const ENABLE_POLL_MS = 25;

/**
 * An action that kept to the background, after which the app took the keyboard itself: it made a window of its
 * own active, or popped up a menu (which grabs the keyboard until it closes); or it moved its keyboard focus
 * within its window (a browser focuses the button its page was clicked on). The answer says so, for it said
 * macpilot touched neither.
 */
function withFocusTaken(result: ActionResult): ActionResult {
  if (result.kind !== 'action' || result.outcome?.kind !== 'changes') return result;
  const { changes } = result.outcome;
  type State = ElementInfo['states'][number];
  const has = (node: Walked | undefined, state: State) => node?.info.states.includes(state) === true;
  const gained = (c: Change, state: State) =>
    c.kind === 'changed' && has(c.node, state) && !has(c.was, state);
  const came = (c: Change, kind: Change['kind'], state: State) => c.kind === kind && has(c.node, state);
  // A window that closed hands the keyboard back to the one under it: that one's becoming active is no taking.
  const handedBack = changes.some((c) => c.kind === 'closed');
  const took = changes.some(
    (c) =>
      (gained(c, 'active') && !handedBack) ||
      came(c, 'opened', 'active') ||
      (c.node.role === 'menu' && gained(c, 'selected')),
  );
  if (took) {
    return {
      ...result,
      done: words`${result.done} ${own('The app then took the keyboard itself (a window of its own made active, or a menu popped up, which holds the keyboard until it closes).')}`,
    };
  }
  const focused = changes.find((c) => gained(c, 'focused') || came(c, 'added', 'focused'))?.node;
  if (!focused) return result;
  const label = labelOf(focused.role, focused.info.name);
  return {
    ...result,
    done: words`${result.done} ${own('The app then moved its keyboard focus itself, to')} ${entryWords({ label, ref: focused.ref, path: focused.path })}${own('.')}`,
  };
}

const onScreen = (detail: ElementDetail): boolean =>
  detail.bounds !== undefined && !detail.states.includes('offscreen');

/** The deepest walk a snapshot takes. */
const MAX_WALK_DEPTH = 64;

export class Elements {
  constructor(
    private readonly kernel: Kernel,
    private readonly input: Input,
    private readonly reader: UiReader,
    private readonly menus: Menus,
  ) {}

  async snapshot(options: SnapshotOptions = {}, call?: CallOptions): Promise<SnapshotResult> {
    return this.kernel.guard('take a snapshot', async () => {
      const roles = options.roles?.map(parseRole);
      // A depth asked for counts the levels shown; the walk also goes through the unnamed wrappers (panels,
      // fillers) that get no line, about three to a shown level in GTK.
      const shown = options.depth;
      const depth = shown === undefined ? SNAPSHOT_DEFAULTS.depth : Math.min(MAX_WALK_DEPTH, shown * 4 + 4);
      const maxNodes = options.maxNodes ?? SNAPSHOT_DEFAULTS.maxNodes;
      const limits = {
        depth,
        maxNodes: Math.min(WALK_MAX_NODES, maxNodes * WALK_PER_LINE),
        includeHidden: options.includeHidden ?? false,
      };
      const { start, title } = await this.start(options, call);
      const walked = await this.walkOrReresolve(options.ref, start, limits, call);
      const render = {
        depth,
        ...(shown === undefined ? {} : { maxLevel: shown + 1 }),
        maxNodes,
        maxChars: SNAPSHOT_DEFAULTS.maxChars,
        roles: roles && new Set(roles),
        walkTruncated: walked.truncated,
        walkMaxNodes: limits.maxNodes,
        includeHidden: limits.includeHidden,
      };
      const ui = await this.reader.read(walked.tree, start.app, call);
      return { kind: 'snapshot', title, tree: walked.tree, render, ui };
    });
  }

  async find(options: FindOptions, call?: CallOptions): Promise<MatchesResult> {
    return this.kernel.guard('find elements', async () => {
      const role = options.role === undefined ? undefined : parseRole(options.role);
      const query = { ...options, role, match: options.match ?? 'contains' };
      const includeHidden = options.includeHidden ?? false;
      const { start, title } = await this.start({ app: options.app, ref: options.within }, call);
      // Searched by a text, a list of thousands of rows gives only the rows whose names may match.
      const searched = query.match === 'regex' ? undefined : (query.text ?? query.name);
      const limits = {
        depth: FIND_DEFAULTS.depth,
        maxNodes: FIND_DEFAULTS.walkMaxNodes,
        includeHidden,
        ...nameFilterOf(searched),
      };
      const walked = await this.walkOrReresolve(options.within, start, limits, call);
      let found = findMatches(walked.tree, query);
      // A walk of everything that stopped at its cap may have spent it before reaching what is on screen (a page
      // of thousands of rows, each a group): what is on screen is searched too, so that it is never lost.
      if (includeHidden && walked.truncated) {
        const shown = await this.walkOrReresolve(
          options.within,
          start,
          { ...limits, includeHidden: false },
          call,
        );
        const seen = new Set(found.map((node) => node.ref));
        found = [...findMatches(shown.tree, query).filter((node) => !seen.has(node.ref)), ...found];
      }
      return {
        kind: 'matches',
        title,
        found,
        byDescription: found.filter((node) => matchedByDescriptionAlone(node, query)),
        maxResults: options.maxResults ?? FIND_DEFAULTS.maxResults,
        // Rows a search passed over by their names were searched too.
        searched: walked.count + (walked.passedOver ?? 0),
        truncated: walked.truncated,
        includeHidden,
      };
    });
  }

  async getElement(target: Target, call?: CallOptions): Promise<ElementResult> {
    return this.kernel.guard(`read ${this.kernel.describe(target)}`, async () => {
      const { entry, detail } = await this.kernel.detail(target, DETAIL_VALUE_CHARS, call);
      const shownText = await this.kernel.resolver.shownText(detail, call);
      return { kind: 'element', entry, detail, ...(shownText === undefined ? {} : { shownText }) };
    });
  }

  async focused(app?: string, call?: CallOptions): Promise<LocatedResult> {
    return this.kernel.guard('find the focused element', async () => {
      const pid = app === undefined ? undefined : (await this.kernel.resolver.app(app, call)).pid;
      const { element } = await this.kernel.port.call('ax.focused', pid === undefined ? {} : { pid }, call);
      if (!element)
        return { kind: 'located', none: own(`No element has keyboard focus${app ? ` in ${app}` : ''}.`) };
      return { kind: 'located', node: await this.kernel.resolver.locate(element, call) };
    });
  }

  async elementAt(x: number, y: number, call?: CallOptions): Promise<LocatedResult> {
    return this.kernel.guard(`find the element at ${x},${y}`, async () => {
      const { element } = await this.kernel.port.call('ax.elementAt', { x, y }, call);
      if (!element) return { kind: 'located', none: own(`No accessible element is at ${x},${y}.`) };
      return { kind: 'located', node: await this.kernel.resolver.locate(element, call) };
    });
  }

  async click(target: Target, options: ClickOptions = {}, call?: CallOptions): Promise<ActionResult> {
    const plain =
      (options.button ?? 'left') === 'left' &&
      (options.count ?? 1) === 1 &&
      (options.modifiers ?? []).length === 0;
    const inMenuBar = plain ? await this.menuBarItem(target, call) : undefined;
    if (inMenuBar) return this.menus.click(inMenuBar.app, inMenuBar.path, call);
    let untouched = false;
    let web = false;
    const result = await this.kernel.act(
      target,
      'click',
      call,
      (entry, detail) => {
        web = isWeb(detail);
        // A text field's own action (GTK's Activate) is Enter, which submits the form it is in: a click on one is
        // a real click, as a person's, which puts the caret there. So is a click on a menu item on screen (its menu
        // open): its own action may run a modal dialog inside the call (menuBarItem); and on a menu's title, whose
        // Click action GTK ignored 1 time in 33 here (no event, the menu shut after 1 s), unless the call keeps to
        // the background. So is a click on a list's or table's item whose own action is GTK's Activate: that is a
        // double-click (a dialog's choice made and the dialog closed), where a person's click selects the item.
        const itsAction = clickAction(detail.actions);
        const real =
          roleOf(detail) === 'textbox' ||
          (onScreen(detail) && MENU_ITEM_ROLES.has(roleOf(detail))) ||
          (onScreen(detail) && roleOf(detail) === 'menu' && this.input.background() === undefined) ||
          (COLLECTION_ITEM_ROLES.has(roleOf(detail)) && itsAction?.toLowerCase() === 'activate');
        const action = plain && !real ? itsAction : undefined;
        const click: Prepared = action
          ? async () => {
              const done = await this.kernel.port.call(
                'ax.perform',
                { id: entry.handle, action, ...this.quietly() },
                call,
              );
              untouched = !done.withPointer;
              return done.withPointer
                ? words`Clicked ${entryWords(entry)} with a real click at its centre, its window in front, as a person presses it (the pointer moved there; its "${appText(action)}" action was not used).`
                : words`Clicked ${entryWords(entry)} (its "${appText(action)}" action; macpilot moved neither the pointer nor the keyboard focus).`;
            }
          : this.input.clickElement(entry, detail, options, call);
        if (!detail.states.includes('disabled')) return click;
        return async () => {
          await this.untilEnabled(entry, call);
          return click();
        };
      },
      (detail) => {
        const inMenu = plain && MENU_ROLES.has(roleOf(detail)) && !detail.states.includes('offscreen');
        const chosen = inMenu && MENU_ITEM_ROLES.has(roleOf(detail));
        // A button pressed by its own action in the background: the app may answer the action before it runs it
        // (GTK3's bridge does), and what it does may show well after (gnome-calculator's "=" showed its result
        // past the first-event wait: "Nothing changed", 3 runs in 3): waited for up to settleMs, and walked.
        const pressedInBackground =
          plain && roleOf(detail) === 'button' && this.input.background() !== undefined && !isWeb(detail);
        return {
          surely: inMenu || pressedInBackground,
          ...(chosen ? { quietMs: MENU_CHOICE_QUIET_MS } : {}),
          pressesDefault: plain && detail.states.includes('default'),
        };
      },
    );
    if (!untouched) return withPopupClosed(result, web);
    return withFocusTaken(web ? result : await this.dialogInAction(result, call));
  }

  /**
   * A menu bar's item in a closed menu, as its app and menu path, for a click that chooses it as a person does
   * (Menus.click): its own action may run a modal dialog inside the call (GTK3's Save As…), which leaves the app
   * deaf to every request until the dialog closes. Looked up only for a target that names a menu item.
   */
  private async menuBarItem(
    target: Target,
    call?: CallOptions,
  ): Promise<{ app: string; path: string } | undefined> {
    const label = target.ref === undefined ? undefined : this.kernel.refs.known(target.ref)?.label;
    const role =
      label?.split(' ')[0] ??
      (target.path === undefined ? undefined : parsePath(target.path).segments.at(-1)?.role);
    if (role === undefined || !(MENU_ITEM_ROLES as ReadonlySet<string>).has(role)) return undefined;
    return this.kernel.guard(`click ${this.kernel.describe(target)}`, async () => {
      const { entry, detail } = await this.kernel.detail(target, 0, call);
      // One on screen is in a menu open already: it is clicked where it is (click).
      if (!MENU_ITEM_ROLES.has(roleOf(detail)) || !detail.states.includes('offscreen')) return undefined;
      const { ancestors } = await this.kernel.port.call('ax.ancestors', { id: entry.handle }, call);
      const bar = ancestors.findIndex((a) => roleOf(a) === 'menubar');
      if (bar < 0) return undefined;
      const menus = ancestors.slice(bar + 1).filter((a) => MENU_PATH_ROLES.has(roleOf(a)));
      const names = [...menus.map((a) => a.name), detail.name];
      if (names.some((name) => name.trim() === '')) return undefined;
      return { app: String(entry.app.pid), path: joinNames(names) };
    });
  }

  /** ax.perform's flag that keeps a press off the pointer, when the call keeps to the background. */
  private quietly(): { background?: true } {
    return this.input.background() === undefined ? {} : { background: true };
  }

  /**
   * A control the app disabled ignores clicks. Apps often enable one a moment after the action that allows it
   * (a file dialog's Save after its name is typed): wait that moment, then refuse.
   */
  private async untilEnabled(entry: RefEntry, call?: CallOptions): Promise<void> {
    const deadline = performance.now() + ENABLE_WAIT_MS;
    for (;;) {
      const { element } = await this.kernel.port.call(
        'ax.element',
        { id: entry.handle, maxValueLength: 0 },
        call,
      );
      if (!element.states.includes('disabled')) return;
      if (performance.now() >= deadline) {
        throw new MacpilotError({
          what: `${entryLine(entry)} is disabled`,
          why: `the app keeps it disabled (waited ${ENABLE_WAIT_MS} ms), so a click would do nothing`,
          next: 'do what enables it first (fill in what it needs, select something), or wait_for it to be enabled',
          kind: 'element_disabled',
        });
      }
      await pause(ENABLE_POLL_MS, call?.signal);
    }
  }

  async perform(target: Target, action: string, call?: CallOptions): Promise<ActionResult> {
    let byItsAction = false;
    const result = await this.kernel.act(target, `perform "${action}" on`, call, (entry, detail) => {
      const matched = matchAction(detail.actions, action);
      if (!matched) throw unknownAction(entry, action, detail.actions);
      return async () => {
        const done = await this.kernel.port.call(
          'ax.perform',
          { id: entry.handle, action: matched, ...this.quietly() },
          call,
        );
        byItsAction = !done.withPointer && !isWeb(detail);
        return words`Performed "${appText(matched)}" on ${entryWords(entry)}.`;
      };
    });
    return byItsAction ? this.dialogInAction(result, call) : result;
  }

  /**
   * After an element's own action (no pointer), in an app whose toolkit runs a modal dialog inside the action
   * (Linux's GTK3, through at-spi2-atk): the dialog it opened is noted, so that keys do not hang the app, and the
   * answer says so.
   */
  private async dialogInAction(result: ActionResult, call?: CallOptions): Promise<ActionResult> {
    if (result.kind !== 'action' || result.outcome?.kind !== 'changes') return result;
    const title = modalOpened(result.outcome.changes);
    if (title === undefined || (await this.kernel.platform(call)) !== 'linux') return result;
    this.kernel.dialogsInActions.note(result.outcome.app, title);
    return { ...result, done: words`${result.done} ${own(dialogInActionNote(title))}` };
  }

  /** The value itself never appears in the answer or in errors: it may be a password. */
  async setValue(target: Target, value: ElementValue, call?: CallOptions): Promise<ActionResult> {
    let untouched = false;
    const result = await this.kernel.act(target, 'set the value of', call, (entry, detail) => {
      // The accessibility layer would set it all the same, going round what the app lets a person do.
      if (detail.states.includes('disabled')) {
        throw new MacpilotError({
          what: `${entryLine(entry)} is disabled`,
          why: 'the app does not let anyone change it now',
          next: 'do what enables it first (get_element shows its states), or wait_for it to be enabled',
          kind: 'element_disabled',
        });
      }
      // A text field given a number takes its digits, as a person types them.
      const given =
        typeof detail.value === 'boolean'
          ? toggleValue(entry, value)
          : typeof value === 'number' && roleOf(detail) === 'textbox'
            ? digitsOf(value)
            : value;
      return async () => {
        let held: unknown;
        try {
          ({ value: held } = await this.kernel.port.call(
            'ax.setValue',
            { id: entry.handle, value: given },
            call,
          ));
        } catch (error) {
          // An editable field that takes no text through the accessibility layer (a web page's: Chromium's
          // refuses it, Firefox's says yes and keeps its old text) is typed into, as a person would: the page
          // hears its input events.
          return this.setByTyping(entry, detail, textToType(error, entry, given), call);
        }
        // The text the field holds after, where the helper reads it back (macOS's does): one that kept its old
        // text (a web field that says yes) is typed into, as the Linux helper asks; a field with a limit or a
        // format holds something else.
        const text = roleOf(detail) === 'textbox' && typeof given === 'string' ? given : undefined;
        if (text !== undefined && typeof held === 'string' && held !== text) {
          if (held === detail.value) return this.setByTyping(entry, detail, text, call);
          throw notKept(entry, held, text);
        }
        untouched = true;
        // A number the control keeps to its own steps or digits (a spin button of 3 decimals given 3.14159).
        const rounded =
          typeof given === 'number' && typeof held === 'number' && held !== given
            ? ` It holds ${digitsOf(held)}, not ${digitsOf(given)}: the control keeps numbers to its own steps.`
            : '';
        return words`Set the value of ${entryWords(entry)} (through the accessibility layer; macpilot moved neither the pointer nor the keyboard focus).${own(rounded)}`;
      };
    });
    return untouched ? withFocusTaken(result) : result;
  }

  /**
   * A text set by typing it, as a person would (the page hears its input events). A one-line field then holds
   * the value, or the call fails: one that limits or rewrites what it takes holds something else. (A select
   * typed into picks the option the keys lead to, in its own case, and a multi-line area shows its lines its
   * own way: neither is compared.)
   */
  private async setByTyping(entry: RefEntry, detail: ElementDetail, value: string, call?: CallOptions) {
    const background = this.input.background();
    if (background !== undefined) throw typingNeeded(entry, background);
    const over = this.input.typingOverrun({ text: value });
    if (over) throw tooLongToType(entry, over);
    const typed = await this.input.typingInto(entry, detail, { text: value, clearFirst: true }, call)();
    const compared =
      roleOf(detail) === 'textbox' && !detail.states.includes('multiline') && awaitsText(value);
    const held = compared
      ? await this.input.settledText(entry.handle, value, call).catch((error: unknown) => {
          if (call?.signal?.aborted) throw error;
          return undefined;
        })
      : undefined;
    if (held !== undefined && held !== value) throw notKept(entry, held, value);
    return words`${typed}\n(Typed: the app takes no text set through the accessibility layer, so the keyboard focus moved to the field.)`;
  }

  async focus(target: Target, call?: CallOptions): Promise<ActionResult> {
    return this.kernel.act(target, 'focus', call, (entry) => async () => {
      const { focused } = await this.kernel.port.call('ax.focus', { id: entry.handle }, call);
      return focused
        ? words`Focused ${entryWords(entry)}.`
        : words`Asked to focus ${entryWords(entry)}, but the app does not report it focused.`;
    });
  }

  // --- walks ---

  /** Where a walk of an app, one of its windows (by title or index) or a ref's subtree starts, and its title. */
  async start(
    options: Pick<SnapshotOptions, 'app' | 'window' | 'ref'>,
    call?: CallOptions,
  ): Promise<{ start: WalkStart; title: string }> {
    if (options.ref !== undefined) {
      const entry = await this.kernel.entry({ ref: options.ref }, call);
      const start = { handle: entry.handle, path: parsePath(entry.path), app: entry.app };
      return { start, title: `${entry.label} [ref=${entry.ref}] in "${entry.app.name}"` };
    }
    const title = typeof options.window === 'string' ? options.window : undefined;
    const app = await this.kernel.resolver.app(options.app, call, true, title);
    const appRef = { pid: app.pid, name: app.name };
    const appPath = this.kernel.resolver.rootPath(app);
    const appTitle = `"${app.name}" (pid ${app.pid})`;
    if (options.window === undefined)
      return { start: { handle: app.id, path: appPath, app: appRef }, title: appTitle };
    const windows = await this.kernel.resolver.children(app.id, false, call);
    const window = pickWindow(windows, options.window, app.name);
    const path = childPath(appPath, segmentFor(window, windows));
    return {
      start: { handle: window.id, path, app: appRef },
      title: `${labelOf(roleOf(window), window.name)} of ${appTitle}`,
    };
  }

  /** Walk from `start`; from a ref, re-resolved through its path when its element went away. */
  private async walkOrReresolve(
    ref: string | undefined,
    start: WalkStart,
    limits: WalkLimits,
    call?: CallOptions,
  ) {
    if (ref === undefined) return this.kernel.walk(start, limits, call);
    return this.kernel.withElement({ ref }, call, (entry) =>
      this.kernel.walk({ ...start, handle: entry.handle }, limits, call),
    );
  }
}

function pickWindow(windows: readonly ElementNode[], wanted: string | number, app: string): ElementNode {
  const titles = windows.map((w, i) => `[${i}] ${labelOf(roleOf(w), w.name)}`).join(', ') || 'none';
  const found =
    typeof wanted === 'number'
      ? windows.slice(wanted, wanted + 1)
      : matchTitle(windows, (w) => w.name, wanted);
  if (found.length === 1 && found[0]) return found[0];
  throw new MacpilotError({
    what: `${found.length === 0 ? 'No' : 'More than one'} window of "${app}" matches ${JSON.stringify(wanted)}`,
    why: `its windows are: ${titles}`,
    next: 'name a window by its index or a title that only it has',
    kind: found.length === 0 ? 'window_not_found' : 'window_ambiguous',
    concerns: ['window'],
  });
}

function unknownAction(entry: RefEntry, wanted: string, actions: readonly string[]): MacpilotError {
  return new MacpilotError({
    what: `${entryLine(entry)} has no action ${JSON.stringify(wanted)}`,
    why: `its actions are: ${actions.length > 0 ? actions.join(', ') : 'none'}`,
    next: actions.length > 0 ? 'use one of its actions' : 'use set_value, focus_element, or click_element',
    kind: 'no_such_action',
    concerns: ['action'],
  });
}

/** A toggle's value (a check box's): true or false, also as the words "true" and "false". */
function toggleValue(entry: RefEntry, value: ElementValue): boolean {
  if (typeof value === 'boolean') return value;
  const word = String(value).trim().toLowerCase();
  if (word === 'true' || word === 'false') return word === 'true';
  throw new MacpilotError({
    what: `${entryLine(entry)} is on or off: its value is true or false, not ${JSON.stringify(value)}`,
    why: 'a check box, switch or toggle button holds whether it is checked',
    next: 'set it to true (checked) or false (unchecked)',
    kind: 'invalid_value',
    concerns: ['value'],
  });
}

/**
 * A field with a length limit kept the start of the text. The field changed all the same: undo restores what it
 * held.
 */
const valueCut = (entry: RefEntry, kept: number, given: number) =>
  new MacpilotError({
    what: `${entryLine(entry)} kept only the first ${plural(kept, 'character')} of the ${given} given`,
    why: 'the app holds no more in it; typing the rest would be cut off as well',
    next: `set a value of at most ${kept} characters: the field holds its first ${kept} now`,
    kind: 'value_too_long',
    concerns: ['value'],
    changed: true,
  });

/** A value typed into a field that then holds something else. Neither text is quoted: the value may be secret. */
function notKept(entry: RefEntry, held: string, value: string): MacpilotError {
  const kept = Array.from(held).length;
  const given = Array.from(value).length;
  if (kept > 0 && kept < given && value.startsWith(held)) return valueCut(entry, kept, given);
  return new MacpilotError({
    what: `${entryLine(entry)} holds ${plural(kept, 'character')} where the value given has ${given}: not the value`,
    why: 'the field changes what it takes (a format, characters it refuses), or the keyboard layout lacks some of the characters',
    next: 'read the field (get_element) to see what it holds, and set a value it takes as it is',
    kind: 'value_not_kept',
    concerns: ['value'],
    changed: true,
    person: {
      next: 'read the field (`macpilot get` with its path) to see what it holds, and set a value it takes as it is',
    },
  });
}

/** A value that has to be typed, and would take longer than one action may. */
const tooLongToType = (
  entry: RefEntry,
  over: { characters: number; expectedMs: number; perCall: number; limit: string },
) =>
  new MacpilotError({
    what: `The value of ${entryLine(entry)} was not set`,
    why: `the app takes no text set through the accessibility layer, so the ${plural(over.characters, 'character')} would be typed, which would take ${duration(over.expectedMs)}, while ${over.limit}`,
    next: `set a value of at most ${over.perCall} characters`,
    kind: 'action_too_long',
    concerns: ['value'],
    refusal: true,
  });

/** The text to type when the helper set no value and asks for typing; else the failure, in set_value's words. */
function textToType(error: unknown, entry: RefEntry, given: ElementValue): string {
  if (!(error instanceof HelperError)) throw error;
  if (error.data.typeInstead === false) throw noValueToSet(entry);
  if (typeof error.data.kept === 'number' && typeof given === 'string') {
    throw valueCut(entry, error.data.kept, Array.from(given).length);
  }
  // A number is typed as its digits (a web page's number field takes no value set either).
  const typed = typeof given === 'number' ? digitsOf(given) : given;
  if (typeof typed !== 'string' || error.data.typeInstead !== true) throw error;
  return typed;
}

/** A number as a person types it: 1000000000000000000000, 0.0000001 (not 1e+21, 1e-7). */
const digitsOf = (value: number): string =>
  value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });

/** set_value of text on an element that holds no text of its own to change (a label, a status bar). */
const noValueToSet = (entry: RefEntry) =>
  new MacpilotError({
    what: `${entryLine(entry)} holds no value that can be set`,
    why: 'it is no text field, slider, spin box, check box or select: what it shows is written by the app, and typing into it does nothing either',
    next: 'set the control meant instead (find_elements with role textbox, slider, checkbox or combobox finds them); a control that does something when pressed is clicked (click_element)',
    kind: 'value_not_settable',
    person: {
      next: 'set the control meant instead (`macpilot find` with its label and `--role textbox` finds a text field); a control that does something when pressed is clicked (`macpilot click` with its path)',
    },
  });
