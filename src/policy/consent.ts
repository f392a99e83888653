/**
 * Human consent (ask the human, not the agent, before destructive actions: docs/architecture.md). A tool annotated
 * destructiveHint asks in every mode; in safe mode, so does any write action whose target is named like a
 * destructive one. The human answers through MCP elicitation (or at the CLI's terminal); no tool argument can
 * answer for them.
 */
import {
  type Consent,
  defaultOrigin,
  type InputMode,
  type SettingName,
  type SettingOrigin,
} from '../config.js';
import type { ElementInfo } from '../helper-client/protocol.js';
import type { Mode } from '../modes.js';
import { focusIn } from '../engine/features/input.js';
import type { HelperPort } from '../engine/kernel/port.js';
import { reachedAt, type RefTable } from '../engine/kernel/refs.js';
import { windowNamed } from '../engine/kernel/window-target.js';
import { maskedLabel, maskedTarget } from '../engine/kernel/entered.js';
import { elementPathIn, parsePath } from '../engine/kernel/paths.js';
import type { Resolver } from '../engine/kernel/resolve.js';
import { roleOf } from '../engine/kernel/roles.js';
import { labelOf } from '../engine/kernel/tree.js';
import { isRefusal, MacpilotError } from '../errors.js';
import { parseChord } from '../keys.js';
import { appAccess, isWrite, toolsetOf } from '../toolsets.js';
import { capitalize } from '../text.js';
import { backgroundOf, inCallScope } from './call-scope.js';
import { ABANDONED_MS, CONSENT_WAIT_MS } from './watch.js';
import type { Guard, ToolCall } from './pipeline.js';

const DESTRUCTIVE = /\b(delete|remove|erase|empty trash|quit|close|format|reset|send|buy|purchase|pay)\b/i;

/** A key's modifiers: those the call names, and those held down (key_down) meanwhile. */
function chordModifiers(args: Record<string, unknown>, held: readonly string[]): string[] {
  const named = Array.isArray(args.modifiers) ? args.modifiers.filter((m) => typeof m === 'string') : [];
  return [...new Set([...named, ...held])];
}

/** Shortcuts that close a window or quit an app: alt+f4; ctrl (or command) with w or q, shift or not. */
function closesOrQuits(args: Record<string, unknown>, held: readonly string[]): boolean {
  if (typeof args.key !== 'string') return false;
  let chord;
  try {
    chord = parseChord(args.key, chordModifiers(args, held));
  } catch {
    return false;
  }
  const mods = new Set(chord.modifiers.map((m) => (m === 'command' ? 'control' : m)));
  if (chord.key.name === 'f4') return mods.size === 1 && mods.has('option');
  const onlyShortcut = [...mods].every((m) => m === 'control' || m === 'shift');
  return ['w', 'q'].includes(chord.key.name) && mods.has('control') && onlyShortcut;
}

/** The tools that press at a screen point the call gives (x, y). */
const CLICKS_AT_POINTS: ReadonlySet<string> = new Set(['click', 'double_click', 'mouse_down']);

/** Keys that go where the keyboard focus is: press_key, key_down, and type_text with no element named. */
const actsOnFocus = (call: ToolCall): boolean =>
  ['press_key', 'key_down'].includes(call.tool.name) ||
  (call.tool.name === 'type_text' && call.args.ref === undefined && call.args.path === undefined);

export interface ConsentSettings {
  mode: Mode;
  consent: Consent;
  /** Where input goes: keys for a named app in the background need not find the focus in it. */
  input?: InputMode;
  /** Where the consent setting came from; default: its default. */
  origins?: Pick<Record<SettingName, SettingOrigin>, 'consent' | 'mode' | 'input'>;
}

/**
 * Where the guard learns the names of targets: refs the session issued, the element keys would reach, and
 * where a path leads (a person is asked about an element that is there, never about a path that leads nowhere).
 */
export interface TargetSource {
  refs: Pick<RefTable, 'known'>;
  port: HelperPort;
  resolver: Pick<Resolver, 'path' | 'app' | 'appOf' | 'gateWindow' | 'visibleWindows'>;
}

export class ConsentGuard implements Guard {
  constructor(
    private readonly settings: ConsentSettings,
    private readonly targets: TargetSource,
    /** The modifiers the sessions hold down (key_down): a key pressed meanwhile goes with them. */
    private readonly held: () => readonly string[] = () => [],
  ) {}

  async admit(call: ToolCall): Promise<undefined> {
    // The person let such actions run without a question: their audit log says which ran so (those that always
    // ask or are destructive; telling the others would cost a look at each target).
    if (this.settings.consent === 'allow') {
      const { tool } = call;
      if (tool.asksConsent || (tool.annotations.destructiveHint && isWrite(tool, call.args)))
        call.notes = { ...call.notes, consent: 'allowed_by_setting' };
      return undefined;
    }
    const asked = await this.needsConsent(call);
    if (asked === undefined) return undefined;
    const { action, asGiven, because } = asked;
    await this.refuseOffLimits(call);
    const detail = call.tool.consentDetail?.(call.args as never);
    const note = (consent: string) => {
      call.notes = { ...call.notes, consent };
    };
    const unreachable = call.human.unreachable();
    if (unreachable !== undefined) {
      note('unavailable');
      const allowAlways = (this.settings.origins?.consent ?? defaultOrigin('consent')).changeAndRestart(
        'allow',
      );
      throw new MacpilotError({
        what: `${capitalize(asGiven)} needs a human's consent`,
        why: `${because}, and ${unreachable}`,
        next: `do it another way, or ask the user to do it or to open \`macpilot console\`, where they are asked such questions; a human can let such actions run without asking: ${allowAlways}`,
        kind: 'consent_unreachable',
        refusal: true,
        person: {
          next: `run the command at a terminal to be asked, or allow it in advance with --yes; to never be asked: ${allowAlways}`,
        },
      });
    }
    const undoable = call.tool.inverse !== undefined;
    // Answering takes the focus (a click in the console, the client's own dialog): keys allowed go where they
    // were asked about, so the window in front when the question was asked is given the focus back.
    const inFront = actsOnFocus(call) ? await this.focusedWindow(call) : undefined;
    const answer = await call.human.confirm(
      { action, asGiven, because, detail, tool: call.tool.name, undoable },
      call.signal,
    );
    if (call.signal.aborted) {
      // No one answered: the person stopped the agents, or the client gave up on the call, while it waited.
      note('withdrawn');
      const reason: unknown = call.signal.reason;
      throw reason instanceof MacpilotError
        ? reason
        : new MacpilotError({
            what: `Not done: the call was cancelled while it waited for the person's answer to: ${asGiven}`,
            why: 'the client cancelled the call (or went away) before anyone answered',
            next: 'nothing: the request was cancelled',
            kind: 'cancelled',
          });
    }
    const allowed = answer === 'accept';
    note(allowed ? 'accepted' : answer === 'unanswered' ? 'unanswered' : 'declined');
    if (allowed) {
      if (inFront !== undefined && (await this.focusedWindow(call)) !== inFront) {
        await this.targets.port
          .call('windows.focus', { id: inFront }, { signal: call.signal })
          .catch(() => {});
      }
      return undefined;
    }
    if (answer === 'unanswered') {
      throw new MacpilotError({
        what: `Not done: no one answered whether to allow: ${asGiven}`,
        why: `the question waited in macpilot's console without an answer (${CONSENT_WAIT_MS / 60_000} minutes, or ${ABANDONED_MS / 1000} s once no page of the console was open), and an unanswered question is a no`,
        next: 'ask the user whether they want it done; do not retry it without asking',
        kind: 'consent_unanswered',
        refusal: true,
      });
    }
    throw new MacpilotError({
      what: `The user did not allow: ${asGiven}`,
      why: answer === 'cancel' ? 'they dismissed the question' : 'they declined',
      next: 'do not retry it; ask the user what they want instead',
      kind: 'declined_by_person',
      refusal: true,
      person: {
        what: `Not done: you did not allow it (${asGiven})`,
        why: answer === 'cancel' ? 'the question was dismissed' : 'you answered no',
        next: 'nothing was changed; run the command again to be asked again',
      },
    });
  }

  /**
   * What the call would do, in words for the human, and why it asks, when it needs their consent. `asGiven` names
   * what it acts on as it is, for answers to the caller alone (who named it, or can read it): a path with its
   * names masked is not one macpilot accepts back, and `textbox name=(5 characters)` tells them nothing.
   */
  private async needsConsent(
    call: ToolCall,
  ): Promise<{ action: string; asGiven: string; because: string } | undefined> {
    const { tool } = call;
    // A window is named as the person sees it (its title and app), not by the id or pid the agent gave.
    const window = tool.toolset === 'windows' ? await this.windowNamed(call) : undefined;
    // The question shows a name that may be text someone entered (a self-labelled field's) as its length; the
    // checks below read the names themselves.
    const shown = new Map<string, string>();
    const target = window ? [window] : this.targetNames(call.args, shown);
    const words = (named: string[]) =>
      `${tool.title.toLowerCase()}${named.length > 0 ? ` (${named.join(', ')})` : ''}`;
    const masked = (name: string) => shown.get(name) ?? maskedTarget(name);
    const appGiven = call.args[toolsetOf(tool.toolset).appArgument];
    const byPid = typeof appGiven === 'string' && /^\d+$/.test(appGiven) ? appGiven : undefined;
    const action = async (because: string) => {
      if (byPid !== undefined) await this.appByPid(byPid, call, shown);
      return {
        action: words(target.map(masked)),
        // An app given by its pid is named by its name too; the rest as it is.
        asGiven: words(target.map((name) => (name === byPid ? masked(name) : name))),
        because,
      };
    };
    if (tool.asksConsent) return action('it always asks first');
    if (!isWrite(tool, call.args)) return undefined;
    // Safe mode: the element a path reaches is what is acted on, whatever the path spells (`button[1]` may be
    // "Delete"); a path that reaches none fails as the call itself would, before anyone is asked.
    if (this.settings.mode === 'safe') target.push(...(await this.reached(call, shown)));
    // click_text's text is the label of what it clicks ("Delete All"), unlike the text type_text types.
    if (tool.name === 'click_text' && typeof call.args.text === 'string') target.push(call.args.text);
    // Keys act on the focused element: Enter (or a space typed) on a focused "Delete" button deletes.
    if (this.settings.mode === 'safe' && actsOnFocus(call)) target.push(...(await this.focused(call, shown)));
    // A click at a point presses what is there: a "Delete all" button at 60,115 is that button.
    if (this.settings.mode === 'safe' && CLICKS_AT_POINTS.has(tool.name))
      target.push(...(await this.atPoint(call, shown)));
    if (tool.annotations.destructiveHint) return action('it is destructive');
    // A key held down with a modifier already held (key_down ctrl, then key_down w) is that shortcut too.
    const keyPress = tool.name === 'press_key' || tool.name === 'key_down';
    if (this.settings.mode === 'safe' && keyPress && closesOrQuits(call.args, this.held())) {
      const mode = this.settings.origins?.mode ?? defaultOrigin('mode');
      return action(
        `safe mode (set by ${mode.where}) asks before a shortcut that closes a window or quits an app`,
      );
    }
    const actsOnNamedTarget = toolsetOf(tool.toolset).namesControls;
    if (this.settings.mode === 'safe' && actsOnNamedTarget && target.some((name) => DESTRUCTIVE.test(name))) {
      const mode = this.settings.origins?.mode ?? defaultOrigin('mode');
      return action(
        `safe mode (set by ${mode.where}) asks before acting on what is named like a destructive action`,
      );
    }
    return undefined;
  }

  /**
   * A call the app lists refuse, or about an app that is not running, fails before anyone is asked: a person who
   * allowed it would see it fail anyway.
   */
  private async refuseOffLimits(call: ToolCall): Promise<void> {
    const options = { signal: call.signal };
    const { args } = call;
    const named = args[toolsetOf(call.tool.toolset).appArgument];
    const ref = typeof args.ref === 'string' ? this.targets.refs.known(args.ref) : undefined;
    const path = typeof args.path === 'string' ? elementPathIn(args.path) : undefined;
    const window = args.window_id;
    const check = () => {
      if (typeof named === 'string' && !call.tool.namesAppWithoutTree)
        return this.targets.resolver.app(named, options);
      if (typeof window === 'string') return this.targets.resolver.gateWindow(window, options);
      if (ref) return this.targets.resolver.appOf(ref.app.pid, options);
      // A path's app is its name, or with a pid the pid's digits.
      if (path) return this.targets.resolver.app(path.app, options);
      return undefined;
    };
    await inCallScope({ access: appAccess(call.tool) }, async () => {
      const app = await check();
      // Refused or declined, the call is logged with the app's name, also when it was named by its pid.
      if (app && call.reached === undefined) call.reached = { app: app.name };
      // A key for an app the keyboard focus is not in would be refused after the answer.
      if (call.tool.name === 'press_key' && typeof named === 'string' && !this.inBackground(args))
        await focusIn(this.targets, named, options);
    }).catch((error: unknown) => {
      // An app that is not running is not asked about either; an ambiguous name is left to the call, which asks.
      // The window tools' app may be one with windows and no tree (list_windows lists it): their call decides.
      const notRunning = call.tool.toolset === 'windows' ? [] : ['app_not_running'];
      const failsAnyway =
        error instanceof MacpilotError && [...notRunning, 'focus_elsewhere'].includes(error.kind);
      if (isRefusal(error) || failsAnyway) throw error;
    });
  }

  private inBackground(args: Record<string, unknown>): boolean {
    const setBy = () => (this.settings.origins?.input ?? defaultOrigin('input')).where;
    return backgroundOf(args, this.settings.input, setBy) !== undefined;
  }

  /** The window a window tool's call names, in words (`window "Notes" of mousepad`), when it names one listed. */
  private async windowNamed(call: ToolCall): Promise<string | undefined> {
    const { args } = call;
    const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
    const target = {
      id: text('window_id'),
      app: text('app'),
      title: text('title'),
      index: typeof args.index === 'number' ? args.index : undefined,
    };
    const listed = await this.targets.resolver
      .visibleWindows(true, { signal: call.signal })
      .catch(() => undefined);
    const found = listed && windowNamed(listed.windows, target);
    if (!found) return undefined;
    return `window ${JSON.stringify(found.title)}${found.app ? ` of ${found.app}` : ''}`;
  }

  /**
   * An app the call names by its pid, named in the question by its name too (`mousepad (pid 4120)`), when it is
   * one the call may read; one the lists hide keeps its pid here, and refuseOffLimits refuses it before anyone is
   * asked.
   */
  private async appByPid(pid: string, call: ToolCall, shown: Map<string, string>): Promise<void> {
    const app = await inCallScope({ access: 'read' }, () =>
      this.targets.resolver.appOf(Number(pid), { signal: call.signal }),
    ).catch(() => undefined);
    if (app) shown.set(pid, `${app.name} (pid ${app.pid})`);
  }

  /** The names of what the call acts on (never typed text or values): elements, menu paths, windows, apps. */
  private targetNames(args: Record<string, unknown>, shown: Map<string, string>): string[] {
    const names: string[] = [];
    const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
    const ref = text('ref');
    const entry = ref === undefined ? undefined : this.targets.refs.known(ref);
    if (entry) shown.set(entry.label, maskedLabel(entry.label, entry.path, entry.editable));
    if (ref !== undefined) names.push(entry?.label ?? ref);
    // A key is named with its modifiers, those held down included: "ctrl+w", never "w".
    const key = text('key');
    if (key !== undefined) names.push([...chordModifiers(args, this.held()), key].join('+'));
    for (const name of ['name', 'path', 'title', 'app', 'window_id']) {
      const value = text(name);
      if (value !== undefined) names.push(value);
    }
    return names;
  }

  /** The label of the element an element path (they begin with app(…); menu and file paths do not) reaches. */
  private async reached(call: ToolCall, shown: Map<string, string>): Promise<string[]> {
    const { path } = call.args;
    if (typeof path !== 'string' || !path.trimStart().startsWith('app(')) return [];
    const parsed = parsePath(path);
    // Read access: it only looks; the app lists still refuse an app that may not be read.
    const resolved = await inCallScope({ access: 'read' }, () =>
      this.targets.resolver.path(parsed, { signal: call.signal }),
    );
    call.reached = reachedAt(resolved);
    shown.set(resolved.label, maskedLabel(resolved.label, resolved.path, resolved.editable));
    return [resolved.label];
  }

  /** The id of the window that has the keyboard focus, if one does. */
  private async focusedWindow(call: ToolCall): Promise<string | undefined> {
    const { windows } = await this.targets.port
      .call('windows.list', { includeMinimized: false }, { signal: call.signal })
      .catch(() => ({ windows: [] }));
    return windows.find((w) => w.focused)?.id;
  }

  private async focused(call: ToolCall, shown: Map<string, string>): Promise<string[]> {
    const { element } = await this.targets.port.call('ax.focused', {}, { signal: call.signal });
    return this.elementMet(call, element, 'focused', shown);
  }

  /** The element at a click's point, when the call gives one. */
  private async atPoint(call: ToolCall, shown: Map<string, string>): Promise<string[]> {
    const { x, y } = call.args;
    if (typeof x !== 'number' || typeof y !== 'number') return [];
    const { element } = await this.targets.port
      .call('ax.elementAt', { x, y }, { signal: call.signal })
      .catch(() => ({ element: null }));
    return this.elementMet(call, element, `at ${x},${y}`, shown);
  }

  /** An element the call would act on without naming it (the focus, a point's), in words, with its app. */
  private async elementMet(
    call: ToolCall,
    element: ElementInfo | null,
    where: string,
    shown: Map<string, string>,
  ): Promise<string[]> {
    if (!element) return [];
    const label = labelOf(roleOf(element), element.name);
    // Keys act on the focused element's app: one the lists keep from the call is refused before anyone is asked,
    // and its element is named to no one (the person's audit log names the app).
    const app = await inCallScope({ access: 'write' }, () =>
      this.targets.resolver.appOf(element.pid, { signal: call.signal }),
    ).catch((error: unknown) => {
      if (isRefusal(error)) throw error;
      return undefined;
    });
    const editable = element.states.includes('editable');
    call.reached = { app: app?.name, label, editable };
    const inApp = app ? ` in ${app.name}` : '';
    const named = `${label}${inApp} (${where})`;
    shown.set(named, `${maskedLabel(label, undefined, editable)}${inApp} (${where})`);
    return [named];
  }
}
