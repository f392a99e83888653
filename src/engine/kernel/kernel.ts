/**
 * The engine's kernel: what every feature shares. Elements are addressed by ref (session-stable) or path
 * (replayable); a ref whose element went away is re-resolved through its path. Walks are labelled here (refs and
 * paths for every node), actions run between two walks of their app, and helper failures become errors in the
 * agent's words. Features (elements, apps, input, windows, menus, ...) receive a Kernel; none imports another.
 */
import { MacpilotError, type Reached } from '../../errors.js';
import {
  type AppInfo,
  type ElementDetail,
  type ElementInfo,
  type Point,
  PROTOCOL_VERSION,
} from '../../helper-client/protocol.js';
import type { Platform } from '../../keys.js';
import { Changes, type ChangeSettings, type Expectation, type Prepared } from './changes.js';
import { explain, isAppNotFound, isGone, isUnavailable } from './failures.js';
import { DialogsInActions } from './dialogs-in-actions.js';
import { HiddenCopy, namedPaste, PASTING_ROLES } from './hidden-copy.js';
import { Displays } from './displays.js';
import { Observer } from './observer.js';
import { type ElementPath, parsePath } from './paths.js';
import type { HelperPort } from './port.js';
import type { CallOptions } from '../../helper-client/errors.js';
import { type AppRef, reachedAt, type RefEntry, type RefSighting, RefTable } from './refs.js';
import { refuseConsolePage } from './console-page.js';
import { type AppChooser, type AppGate, describeApps, Resolver } from './resolve.js';
import type { ActionResult } from './results.js';
import { roleOf } from './roles.js';
import { sameShown } from './shown.js';
import { SNAPSHOT_VALUE_CHARS } from './tree.js';
import { annotate, dropDocumentFocus, labelOf, labelParts, type Walked } from './tree.js';
import { entryWords, plainText } from './words.js';

/** Exactly one of ref and path. */
export interface Target {
  ref?: string;
  path?: string;
}

/** Where a walk starts: an element, the path it has, and its app. */
export interface WalkStart {
  handle: string;
  path: ElementPath;
  app: AppRef;
}

/** A walk of a whole app, from its root (`resolver.rootPath` gives the path of it agents can name again). */
export const appWalkStart = (
  app: AppInfo,
  path: ElementPath = { app: app.name, segments: [] },
): WalkStart => ({
  handle: app.id,
  path,
  app: { pid: app.pid, name: app.name },
});

export interface WalkLimits {
  depth: number;
  maxNodes: number;
  includeHidden: boolean;
  maxValueLength?: number;
  includeBounds?: boolean;
  /** A search's text: long containers' rows are read in full only where their names may match. */
  nameFilter?: string;
}

export interface LabelledWalk {
  tree: Walked;
  truncated: boolean;
  count: number;
  /** Rows of long lists whose names a search read and passed over. */
  passedOver?: number;
}

export const describeTarget = (target: Target): string => target.ref ?? target.path ?? 'an element';

/** An element in an error message: `button "Save" [ref=e12]`. */
export const entryLine = (entry: RefEntry): string => plainText(entryWords(entry));

/** The verbs of act that press what they act on (a click, an element's own action). */
const PRESSES = /^(click|double-click|triple-click|right-click|perform|press)/;

export class Kernel {
  private platformAsked: Promise<Platform> | undefined;
  readonly resolver: Resolver;
  readonly observer: Observer;
  /** Runs actions between two walks of their app and reports what changed. */
  readonly changes: Changes;
  /** Where the displays are: every point given is checked against them. */
  readonly displays: Displays;
  /** Dialogs apps run inside the action that opened them, which keys must not reach. */
  readonly dialogsInActions = new DialogsInActions();

  /** Whether the clipboard holds a hidden app's copy, which no action may paste. */
  readonly hiddenCopy = new HiddenCopy();

  constructor(
    readonly port: HelperPort,
    settings: ChangeSettings,
    /** Refuses apps the call in progress may not use; absent: all apps. */
    readonly gate: AppGate = () => {},
    readonly refs = new RefTable(),
    /** Asks the human which app an ambiguous name means; absent: the error lists them. */
    choose?: AppChooser,
  ) {
    this.resolver = new Resolver(port, this.refs, gate, choose);
    this.observer = new Observer(port);
    this.displays = new Displays(port);
    this.changes = new Changes(port, this.refs, this.resolver, this.observer, settings);
  }

  /** The helper's platform, asked once (again after a failed ask). */
  platform(call?: CallOptions): Promise<Platform> {
    if (!this.platformAsked) {
      const asking = this.port
        .call('system.hello', { protocolVersion: PROTOCOL_VERSION, client: 'macpilot-engine' }, call)
        .then((hello) => hello.platform);
      this.platformAsked = asking;
      asking.catch(() => {
        if (this.platformAsked === asking) this.platformAsked = undefined;
      });
    }
    return this.platformAsked;
  }

  // --- walks ---

  /** The one walk-and-label: the helper walks from `start`, and every node gets its ref and path. */
  async walk(start: WalkStart, limits: WalkLimits, call?: CallOptions): Promise<LabelledWalk> {
    const params = { maxValueLength: SNAPSHOT_VALUE_CHARS, ...limits, root: start.handle };
    const result = await this.port.call('ax.snapshot', params, call);
    dropDocumentFocus(result.root);
    const tree = annotate(
      { node: result.root, path: start.path, app: start.app, filtered: params.nameFilter !== undefined },
      this.refs,
    );
    const passedOver = result.passedOver === undefined ? {} : { passedOver: result.passedOver };
    return { tree, truncated: result.truncated, count: result.nodeCount, ...passedOver };
  }

  // --- targets and refs ---

  async entry(target: Target, call?: CallOptions): Promise<RefEntry> {
    if ((target.ref === undefined) === (target.path === undefined)) {
      throw new MacpilotError({
        what: 'No single element named',
        why: 'an element is named by exactly one of ref (e.g. "e12") or path',
        next: 'give a ref from snapshot_ui or find_elements, or a path from get_element',
        kind: 'no_single_target',
      });
    }
    if (target.path !== undefined) {
      const resolved = await this.resolver.path(parsePath(target.path), call);
      refuseConsolePage(resolved.path);
      return this.refs.issue(resolved.handle, resolved);
    }
    const ref = target.ref as string;
    const entry = this.refs.get(ref);
    if (entry) {
      this.gate(entry.app);
      refuseConsolePage(entry.path);
      return entry;
    }
    const retired = this.refs.retired(ref);
    if (retired) {
      this.gate(retired.app);
      return this.reresolve({ ref, ...retired }, call);
    }
    throw new MacpilotError({
      what: `Unknown ref ${JSON.stringify(ref)}`,
      why: this.refs.issued(ref)
        ? 'this session issued it long ago and has since forgotten it (it keeps the most recent refs)'
        : 'this session never issued that ref (refs come from snapshot_ui, find_elements, get_focused_element and element_at)',
      next: 'take a snapshot_ui or use find_elements, then use a ref from its answer',
      kind: 'unknown_ref',
      concerns: ['ref'],
    });
  }

  /** Run `use` on the target's element; if its handle is gone, re-resolve the ref through its path once. */
  async withElement<T>(target: Target, call: CallOptions | undefined, use: (e: RefEntry) => Promise<T>) {
    const entry = await this.entry(target, call);
    try {
      return await use(entry);
    } catch (error) {
      if (!isGone(error)) throw error;
      return use(await this.reresolve(entry, call));
    }
  }

  /** The ref pointed at the element its path leads to now; refused when the path leads to none or several. */
  private async reresolve(seen: RefSighting & { ref: string }, call?: CallOptions): Promise<RefEntry> {
    try {
      const resolved = await this.resolver.path(parsePath(seen.path), call);
      return this.refs.repoint(seen.ref, resolved.handle, {
        ...seen,
        label: resolved.label,
        app: resolved.app,
      });
    } catch (error) {
      if (!(error instanceof MacpilotError)) throw error;
      const said = error.forPerson();
      throw new MacpilotError(
        {
          what: `${seen.ref} (${seen.label}) is gone`,
          why: `its element went away, and its path ${seen.path} no longer leads to exactly one element: ${error.what.toLowerCase()}; ${error.why}`,
          next: error.next,
          kind: 'element_gone',
          concerns: ['ref'],
          // A person named it by its path: the ref is the command's own, meaningless at the terminal.
          person: {
            what: `${seen.label} at ${seen.path} is gone`,
            why: `its element went away, and its path no longer leads to exactly one element: ${said.what.toLowerCase()}; ${said.why}`,
            ...(error.person.next === undefined ? {} : { next: error.person.next }),
          },
        },
        { cause: error },
      );
    }
  }

  async detail(target: Target, maxValueLength: number, call?: CallOptions) {
    return this.withElement(target, call, async (entry) => {
      const read = await this.port.call('ax.element', { id: entry.handle, maxValueLength }, call);
      const element = await this.resolver.named(read.element, call);
      entry.label = labelOf(roleOf(element), element.name);
      return { entry, detail: element };
    });
  }

  // --- actions ---

  /**
   * The walks that tell what changed read what shows: an element off screen (a check box on a tab not shown) is
   * read again on its own, and its change is told with the others.
   */
  private async withOwnChange(
    observed: ActionResult,
    entry: RefEntry,
    before: ElementDetail,
    call?: CallOptions,
  ): Promise<ActionResult> {
    const { outcome } = observed;
    if (outcome?.kind !== 'changes' || !before.states.includes('offscreen')) return observed;
    if (outcome.changes.some((change) => change.node.info.id === entry.handle)) return observed;
    const read = await this.port
      .call('ax.element', { id: entry.handle, maxValueLength: SNAPSHOT_VALUE_CHARS }, call)
      .catch(() => undefined);
    if (!read) return observed;
    const node = (info: ElementInfo): Walked => ({
      info,
      role: roleOf(info),
      ref: entry.ref,
      path: entry.path,
      depth: 0,
      children: [],
      unexpanded: false,
    });
    const was = node(before);
    const now = node({ ...read.element, name: before.name });
    if (sameShown(was, now)) return observed;
    return {
      ...observed,
      outcome: { ...outcome, changes: [...outcome.changes, { kind: 'changed', node: now, was }] },
    };
  }

  /**
   * Resolve the target, let `prepare` check the request (throwing before anything is walked), walk the
   * affected app, act, wait for the UI to settle, and answer with what was done and what changed. `expect` says
   * what the action will surely do to the element read (see Expectation).
   */
  async act(
    target: Target,
    verb: string,
    call: CallOptions | undefined,
    prepare: (entry: RefEntry, detail: ElementDetail) => Prepared,
    expect: (detail: ElementDetail) => Expectation = () => ({}),
  ): Promise<ActionResult> {
    let reached: RefEntry | undefined;
    try {
      return await this.guard(`${verb} ${this.describe(target)}`, async () => {
        const { entry, detail } = await this.detail(target, 0, call);
        // A press of a "Paste" button or menu item pastes as Ctrl+V does.
        const { role, name } = labelParts(entry.label);
        if (PRESSES.test(verb) && PASTING_ROLES.has(role) && namedPaste(name)) {
          await this.hiddenCopy.refusePaste(`${verb} ${entry.label}`);
        }
        // The element as it was acted on: the ref table updates its entry with what changed (a combo box's name
        // is the item it shows), and the audit log must not learn a value set from the name it takes.
        const actedOn = { ...entry };
        reached = actedOn;
        const run = prepare(entry, detail);
        const scope = await this.changes.scope(entry.handle, entry.app.pid, call);
        const observed = await this.withOwnChange(
          await this.changes.observe(scope, run, call, expect(detail)),
          entry,
          detail,
          call,
        );
        return {
          ...observed,
          target: actedOn,
          ...(detail.bounds ? { targetBounds: detail.bounds } : {}),
        };
      });
    } catch (error) {
      // A person's advice names the element they acted on by its path; the audit log, the element and its app.
      if (!reached || !(error instanceof MacpilotError)) throw error;
      throw error.about(reached.path, reachedAt(reached));
    }
  }

  /** The element the pointer would reach at a screen point; null where the helper cannot hit-test. */
  async elementAt(point: Point, call?: CallOptions): Promise<ElementInfo | null> {
    const { element } = await this.port
      .call('ax.elementAt', point, call)
      .catch((error: unknown) => (isUnavailable(error) ? { element: null } : Promise.reject(error)));
    return element;
  }

  /** A target in a sentence: a known ref as its element's line (`textbox "Name" [ref=e3]`), else as given. */
  describe(target: Target): string {
    const known = target.ref === undefined ? undefined : this.refs.known(target.ref);
    return known ? `${known.label} [ref=${target.ref}]` : describeTarget(target);
  }

  // --- errors ---

  /**
   * Helper failures as MacpilotErrors about `doing`; a missing app's error lists the running ones. What the work
   * says it `reach`ed (the app keys went to) stays with its failure, for the audit log.
   */
  async guard<T>(doing: string, work: (reach: (reached: Reached) => void) => Promise<T>): Promise<T> {
    let reached: Reached | undefined;
    try {
      return await work((found) => (reached = found));
    } catch (error) {
      const running = isAppNotFound(error)
        ? await this.resolver.visibleApps().then(
            ({ apps }) => describeApps(apps),
            () => undefined,
          )
        : undefined;
      const explained = explain(error, doing, running);
      throw reached && explained instanceof MacpilotError ? explained.reaching(reached) : explained;
    }
  }
}
