/**
 * App policy: which apps an agent may read (snapshot, find, get) and which it may act on. Apps become known in
 * the engine (resolving an app or a path, acting on a ref); there it asks `check`, with the access of the tool
 * call in progress (read for tools annotated readOnlyHint, write for the rest), which the MCP server sets per
 * call through `withAccess`.
 */
import {
  type Config,
  defaultOrigin,
  environmentOrigin,
  type SettingName,
  type SettingOrigin,
} from '../config.js';
import { type AppGate, AppRefused } from '../engine/kernel/resolve.js';
import { type Access, accessOfCall, inCallScope } from './call-scope.js';

export type { Access } from './call-scope.js';

/** Credential managers: neither read nor acted on unless a human lifts the default list. */
export const DEFAULT_DENIED = [
  'Keychain Access',
  'com.apple.keychainaccess',
  'Passwords',
  'com.apple.Passwords',
  '1Password',
  'com.1password.1password',
  'Bitwarden',
  'com.bitwarden.desktop',
  'seahorse',
  'org.gnome.seahorse.Application',
  'keepassxc',
];

/**
 * Terminals, system settings and the dialogs where the person grants access (the portals'): readable, never
 * acted on unless a human lifts the default list. An agent that could press "Share" would grant itself.
 */
export const DEFAULT_WRITE_DENIED = [
  'Terminal',
  'com.apple.Terminal',
  'iTerm2',
  'com.googlecode.iterm2',
  'System Settings',
  'com.apple.Settings',
  'System Preferences',
  'com.apple.systempreferences',
  'gnome-terminal',
  'gnome-terminal-server',
  'xfce4-terminal',
  'konsole',
  'xterm',
  'uxterm',
  'urxvt',
  'foot',
  'footclient',
  'Alacritty',
  'kitty',
  'WezTerm',
  'org.wezfurlong.wezterm',
  'ghostty',
  'com.mitchellh.ghostty',
  'tilix',
  'com.gexperts.Tilix',
  'terminator',
  'mate-terminal',
  'lxterminal',
  'qterminal',
  'kgx',
  'org.gnome.Console',
  'ptyxis',
  'org.gnome.Ptyxis',
  'gnome-control-center',
  'org.gnome.Settings',
  'systemsettings',
  'xfce4-settings-manager',
  'xdg-desktop-portal-gnome',
  'xdg-desktop-portal-kde',
  'xdg-desktop-portal-gtk',
  'xdg-desktop-portal-wlr',
  'xdg-desktop-portal-hyprland',
  'polkit-gnome-authentication-agent-1',
  'polkit-kde-authentication-agent-1',
];

export interface AppPolicySettings {
  /** MACPILOT_DENY_APPS; undefined: the default lists; ['none']: no default list. */
  denyApps?: readonly string[];
  /** MACPILOT_ALLOW_APPS; when set, only these apps. */
  allowApps?: readonly string[];
  /** MACPILOT_LIST_DENIED_APPS: denied apps' names and window titles are listed (they stay unreadable). */
  listDenied?: boolean;
  /** Where the two lists came from; default: their defaults. */
  origins?: Pick<Record<SettingName, SettingOrigin>, 'denyApps' | 'allowApps'>;
  /** Processes hidden whatever the lists say: the browsers showing macpilot's console (the person's). */
  hiddenPids?: () => ReadonlySet<number>;
}

export interface NamedApp {
  name: string;
  bundleId?: string;
  pid?: number;
}

/**
 * The engine's gate for this policy: the access the engine names (an action asked about), else the access of the
 * tool call in progress.
 */
export const appGate =
  (policy: AppPolicy): AppGate =>
  (app, access) =>
    policy.check(app, access ?? accessOfCall());

/** Run `work` as a call with this access; the engine's checks read it. */
export function withAccess<T>(access: Access, work: () => Promise<T>): Promise<T> {
  return inCallScope({ access }, work);
}

const normalize = (names: readonly string[]) => new Set(names.map((n) => n.trim().toLowerCase()));
const DEFAULT_DENIED_SET = normalize(DEFAULT_DENIED);

/** "1Password 7", "1Password 8" and "1Password" are one app to a deny list. */
const matches = (list: ReadonlySet<string>, app: NamedApp): boolean =>
  [app.name, app.bundleId].some((id) => {
    if (id === undefined) return false;
    const lower = id.toLowerCase();
    return list.has(lower) || list.has(lower.replace(/\s+\d+$/, ''));
  });

/** How the person's audit log and console name the browser that shows the console. */
export const CONSOLE_APP = "macpilot's console";

/** The policy the settings give; `hiddenPids`: the console's browsers, hidden whatever the lists say. */
export const appPolicyOf = (
  config: Pick<Config, 'denyApps' | 'allowApps' | 'listDeniedApps' | 'origins'>,
  hiddenPids?: () => ReadonlySet<number>,
): AppPolicy =>
  new AppPolicy({
    denyApps: config.denyApps,
    allowApps: config.allowApps,
    listDenied: config.listDeniedApps,
    origins: config.origins,
    hiddenPids,
  });

export class AppPolicy {
  private readonly denied: ReadonlySet<string>;
  private readonly writeDenied: ReadonlySet<string>;
  private readonly allowed?: ReadonlySet<string>;
  /** The lists as the person wrote them, for describe. */
  private readonly written: { deny: readonly string[]; allow?: readonly string[] };
  private readonly defaults: boolean;
  private readonly listDenied: boolean;
  private readonly denyOrigin: SettingOrigin;
  private readonly allowOrigin: SettingOrigin;
  /** Bundle ids of the apps checked so far, by pid: a ref knows its app's pid and name only. */
  private readonly bundleIds = new Map<number, string>();

  private readonly hiddenPids?: () => ReadonlySet<number>;

  constructor(settings: AppPolicySettings = {}) {
    this.hiddenPids = settings.hiddenPids;
    const deny = settings.denyApps ?? [];
    this.defaults = settings.denyApps === undefined;
    this.listDenied = settings.listDenied ?? false;
    const own = deny.filter((name) => name.trim().toLowerCase() !== 'none');
    this.denied = normalize(this.defaults ? [...DEFAULT_DENIED, ...own] : own);
    this.writeDenied = normalize(this.defaults ? DEFAULT_WRITE_DENIED : []);
    // "none", as for the deny list, is no list: every app is allowed.
    const allow = settings.allowApps?.filter((name) => name.trim().toLowerCase() !== 'none');
    this.allowed = allow && allow.length > 0 ? normalize(allow) : undefined;
    this.written = { deny: own, ...(this.allowed ? { allow } : {}) };
    this.denyOrigin =
      settings.origins?.denyApps ??
      (this.defaults ? defaultOrigin('denyApps') : environmentOrigin('denyApps'));
    this.allowOrigin = settings.origins?.allowApps ?? environmentOrigin('allowApps');
  }

  /** Refuses, naming the app and the setting that would allow it, when the current call may not use `app`. */
  check(named: NamedApp, wanted: Access | 'list'): void {
    if (named.pid !== undefined && this.hiddenPids?.().has(named.pid)) {
      // The person's audit log names what it is, not the browser that shows it.
      const refused = refusal(
        CONSOLE_APP,
        "macpilot's console",
        `"${named.name}" (pid ${named.pid}) is off limits`,
        "it is the browser showing macpilot's console, where the person watches agents and answers their questions",
        "nothing to do: it is the person's; ask them there",
        // Read at a terminal, by the person whose console it is.
        {
          what: `"${named.name}" (pid ${named.pid}) is your macpilot console's browser`,
          why: 'macpilot keeps it from every command and agent, whatever your app lists say',
          next: 'nothing to do: use the console in its window',
        },
      );
      refused.personsOwn = true;
      throw refused;
    }
    if (wanted === 'list' && this.listDenied) return;
    const access = wanted === 'list' ? 'read' : wanted;
    const app = this.withBundleId(named);
    const which = `"${app.name}"${app.bundleId ? ` (${app.bundleId})` : ''}`;
    if (matches(this.denied, app)) {
      const byDefault = this.defaults && matches(DEFAULT_DENIED_SET, app);
      throw refusal(
        app.name,
        byDefault ? 'the default deny lists' : this.denyOrigin.where,
        `${which} is off limits`,
        byDefault
          ? 'it is a credential manager, denied by default'
          : `it is listed in ${this.denyOrigin.where}`,
        byDefault
          ? `only a human can allow it: a deny list of your own replaces both default lists (terminals and settings become writable too); one that keeps the other credential managers denied: ${this.denyOrigin.change(DEFAULT_DENIED.filter((name) => !matches(normalize([name]), app)).join(','))}`
          : `only a human can allow it: remove it from ${this.denyOrigin.where} (an allow list does not override a deny)`,
      );
    }
    if (access === 'write' && matches(this.writeDenied, app)) {
      throw refusal(
        app.name,
        'the default deny lists',
        `${which} may be read but not acted on`,
        'terminals, system settings and the dialogs that grant access are denied for writing by default',
        `only a human can allow it: a deny list of your own replaces both default lists (every terminal and settings app becomes writable); one that keeps the credential managers denied: ${this.denyOrigin.change(DEFAULT_DENIED.join(','))}`,
      );
    }
    if (this.allowed && !matches(this.allowed, app)) {
      throw refusal(
        app.name,
        this.allowOrigin.where,
        `${which} is off limits`,
        `${this.allowOrigin.where} lists the only apps allowed, and not this one`,
        `only a human can allow it: add its name or bundle id to ${this.allowOrigin.where}`,
      );
    }
  }

  /** The lists in force and where they were set, in a person's words (doctor's line). */
  describe(): string {
    const allow = this.written.allow
      ? `; only ${this.written.allow.join(', ')} allowed (${this.allowOrigin.where})`
      : '';
    if (this.defaults)
      return `the default lists: credential managers denied, terminals, system settings and the dialogs that grant access read-only${allow}`;
    const own = this.written.deny.length > 0 ? `${this.written.deny.join(', ')} denied` : 'no app denied';
    return (
      `${own} (${this.denyOrigin.where}), in place of the default lists: credential managers not in it can be read ` +
      `and terminals, system settings and the dialogs that grant access acted on${allow}`
    );
  }

  private withBundleId(app: NamedApp): NamedApp {
    if (app.pid === undefined) return app;
    if (app.bundleId !== undefined) this.bundleIds.set(app.pid, app.bundleId);
    return { ...app, bundleId: app.bundleId ?? this.bundleIds.get(app.pid) };
  }
}

/** A refusal of `app` by `setting` (where the person set it). */
function refusal(
  app: string,
  setting: string,
  what: string,
  why: string,
  next: string,
  person?: { what: string; why: string; next: string },
): AppRefused {
  const refused = new AppRefused({
    what,
    why,
    next,
    ...(person ? { person } : {}),
    kind: 'app_off_limits',
    refusal: true,
    reached: { app },
  });
  refused.setting = setting;
  return refused;
}
