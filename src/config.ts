/**
 * Configuration: flags override the environment, which overrides the config file
 * (`MACPILOT_CONFIG` or ~/.config/macpilot/config.json). Unknown or malformed values fail at start-up with a
 * message naming the setting and what it accepts.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './log.js';
import { nearestNames, oneLine } from './text.js';
import { type Mode, MODES } from './modes.js';
import { ALWAYS_ON, DEFAULT_TOOLSETS, isToolset, TOOLSET_NAMES, type Toolset } from './toolsets.js';

export interface Config {
  toolsets: Toolset[];
  helperPath?: string;
  logLevel: LogLevel;
  /** full (default), safe (destructive actions need a human's consent), read-only (only readOnlyHint tools). */
  mode: Mode;
  /** MACPILOT_DENY_APPS: names or bundle ids; absent: the default lists (src/policy/apps.ts). */
  denyApps?: string[];
  /** MACPILOT_ALLOW_APPS: when set, only these apps. */
  allowApps?: string[];
  /** MACPILOT_LIST_DENIED_APPS: agents see the names and window titles of the apps the lists deny (default off). */
  listDeniedApps: boolean;
  /** ask (default): destructive actions ask the human through elicitation; allow: they run without asking. */
  consent: Consent;
  rateLimits: RateLimits;
  /** The audit log file; undefined when turned off (audit entries still go to the client as log messages). */
  auditLog?: string;
  /**
   * `serve --http`: where to listen, and the bearer token every request must carry (when set). Read when
   * serving HTTP, so that a setting only it uses never stops another command.
   */
  http: () => HttpSettings;
  /** MACPILOT_CLIPBOARD_HISTORY: keep the texts the clipboard held, in memory (default on). */
  clipboardHistory: boolean;
  /** MACPILOT_INPUT: background refuses actions that need the pointer or the keyboard focus (default foreground). */
  input: InputMode;
  /**
   * MACPILOT_PERSON_FIRST: the person's own mouse or keyboard input stops the agent's input (default on in safe
   * mode, off otherwise).
   */
  personFirst: boolean;
  /**
   * MACPILOT_CONSOLE_PICTURES: while a console watches, actions are pictured before and after (default on, off
   * in read-only mode).
   */
  consolePictures: boolean;
  /**
   * MACPILOT_PORTAL: on Wayland, take keys, the pointer and the screen through the RemoteDesktop portal, which
   * asks the person in a dialog: "auto" (default) where the desktop offers no route of its own, "on" always,
   * "off" never.
   */
  portal: PortalUse;
  /**
   * MACPILOT_ACCESSIBILITY: on Linux, "on" (default) turns the desktop's accessibility switch on at start, so that
   * browsers and Electron apps started afterwards build their trees; "leave" does not touch it, and turns it off
   * again where macpilot was the one that turned it on.
   */
  accessibility: AccessibilityUse;
  /** Where the file settings came from, if anywhere. */
  configFile?: string;
  /** Where each setting came from (a flag, the environment, the config file, or its default), for refusals. */
  origins: Record<SettingName, SettingOrigin>;
}

/** The settings, by the name the config file gives them. */
export type SettingName = keyof RawSettings;

/** Where a setting's value came from, in words a person can act on. */
export interface SettingOrigin {
  /** "the environment variable MACPILOT_MODE", "\"mode\" in /home/ann/.config/macpilot/config.json", ... */
  where: string;
  /** How to give the setting `value` there instead ("set MACPILOT_MODE=full in ..."). */
  change(value: string): string;
  /** The same, then macpilot restarted to take it ("…, then restart macpilot"; "restart macpilot with --mode full"). */
  changeAndRestart(value: string): string;
}

export interface RateLimits {
  callsPerSecond: number;
  callsPerMinute: number;
  concurrent: number;
  /** Calls of tools not annotated readOnlyHint. */
  writesPerSecond: number;
  /** Calls of the tools of toolsets that run scripts. */
  scriptsPerMinute: number;
  /** The longest one action may be asked to take (typing: its characters × its delay), in seconds. */
  actionSeconds: number;
}

export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  callsPerSecond: 20,
  callsPerMinute: 600,
  concurrent: 8,
  writesPerSecond: 10,
  scriptsPerMinute: 10,
  actionSeconds: 60,
};

/** The setting names of MACPILOT_RATE_LIMITS (`calls_per_second=20,...`). */
export const RATE_LIMIT_KEYS: Readonly<Record<string, keyof RateLimits>> = {
  calls_per_second: 'callsPerSecond',
  calls_per_minute: 'callsPerMinute',
  concurrent: 'concurrent',
  writes_per_second: 'writesPerSecond',
  scripts_per_minute: 'scriptsPerMinute',
  action_seconds: 'actionSeconds',
};

export const RATE_LIMITS_SETTING = 'MACPILOT_RATE_LIMITS';
/** The highest amount a rate limit may be given. */
export const MAX_RATE_LIMIT = 9_999_999;

/** `limits` as MACPILOT_RATE_LIMITS gives them, with `key` at `value`: the others that differ from the defaults kept. */
export function rateLimitsSetting(limits: RateLimits, key: keyof RateLimits, value: number): string {
  const wanted = { ...limits, [key]: value };
  return Object.entries(RATE_LIMIT_KEYS)
    .filter(([, k]) => k === key || wanted[k] !== DEFAULT_RATE_LIMITS[k])
    .map(([name, k]) => `${name}=${wanted[k]}`)
    .join(',');
}
export const CONSENTS = ['ask', 'allow'] as const;
export const INPUT_MODES = ['foreground', 'background'] as const;
export const PORTAL_USES = ['auto', 'on', 'off'] as const;
export type PortalUse = (typeof PORTAL_USES)[number];
export const ACCESSIBILITY_USES = ['on', 'leave'] as const;
export type AccessibilityUse = (typeof ACCESSIBILITY_USES)[number];
export type InputMode = (typeof INPUT_MODES)[number];
export type Consent = (typeof CONSENTS)[number];
const ON_OFF = ['on', 'off'] as const;
const isOff = (value: string): boolean => value.trim().toLowerCase() === 'off';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const APP_LIST = 'expected "1Password,KeePassXC" or ["1Password", "KeePassXC"] (app names or bundle ids)';

const RATE_LIMITS_FORM =
  'expected "calls_per_second=20,concurrent=8" or {"calls_per_second": 20, "concurrent": 8} (numbers, not strings)';

const FileConfig = z
  .object({
    toolsets: z
      .union([z.string(), z.array(z.string())], {
        error: `expected "ui,apps" or ["ui", "apps"] (toolsets: ${TOOLSET_NAMES.join(', ')}, or "all")`,
      })
      .optional(),
    helperPath: z.string({ error: 'expected the path of a helper, as a string' }).optional(),
    logLevel: z.string({ error: `expected one of ${LOG_LEVELS.map((l) => `"${l}"`).join(', ')}` }).optional(),
    host: z.string({ error: 'expected an IP address or a host name, as a string' }).optional(),
    port: z.union([z.string(), z.number()], { error: 'expected a port number, 0 to 65535' }).optional(),
    httpToken: z.string({ error: 'expected a secret of 16 or more characters, as a string' }).optional(),
    rateLimits: z
      .union([z.string(), z.record(z.string(), z.number({ error: RATE_LIMITS_FORM }))], {
        error: RATE_LIMITS_FORM,
      })
      .optional()
      .transform((value) =>
        value === undefined || typeof value === 'string'
          ? value
          : Object.entries(value)
              .map(([name, amount]) => `${name}=${amount}`)
              .join(','),
      ),
    auditLog: z.string({ error: 'expected a file path, or "off"' }).optional(),
    mode: z.string({ error: `expected one of ${MODES.map((m) => `"${m}"`).join(', ')}` }).optional(),
    denyApps: z.union([z.string(), z.array(z.string())], { error: APP_LIST }).optional(),
    allowApps: z.union([z.string(), z.array(z.string())], { error: APP_LIST }).optional(),
    listDeniedApps: z.string({ error: 'expected "on" or "off"' }).optional(),
    consent: z.string({ error: 'expected "ask" or "allow"' }).optional(),
    clipboardHistory: z.string({ error: 'expected "on" or "off"' }).optional(),
    input: z.string({ error: 'expected "foreground" or "background"' }).optional(),
    personFirst: z.string({ error: 'expected "on" or "off"' }).optional(),
    consolePictures: z.string({ error: 'expected "on" or "off"' }).optional(),
    portal: z.string({ error: 'expected "auto", "on" or "off"' }).optional(),
    accessibility: z.string({ error: 'expected "on" or "leave"' }).optional(),
  })
  .loose();

/** Settings as given by one source, before validation. */
interface RawSettings {
  toolsets?: string | string[];
  helperPath?: string;
  logLevel?: string;
  host?: string;
  port?: string | number;
  httpToken?: string;
  rateLimits?: string;
  auditLog?: string;
  mode?: string;
  denyApps?: string | string[];
  allowApps?: string | string[];
  listDeniedApps?: string;
  consent?: string;
  clipboardHistory?: string;
  input?: string;
  personFirst?: string;
  consolePictures?: string;
  portal?: string;
  accessibility?: string;
}

export function parseToolsets(value: string | string[], source: string): Toolset[] {
  const names = (Array.isArray(value) ? value : value.split(','))
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes('all')) return [...TOOLSET_NAMES];
  if (names.length === 0) {
    throw new ConfigError(
      `${source}: no toolset named; give some of ${TOOLSET_NAMES.join(', ')}, or "all" (only "session" for the session tools alone)`,
    );
  }
  const unknown = names.filter((name) => !isToolset(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `${source}: unknown toolset ${unknown.map((n) => `"${n}"`).join(', ')}; ` +
        `valid: ${TOOLSET_NAMES.join(', ')}, or "all"`,
    );
  }
  const chosen = names.filter(isToolset);
  return [...new Set([...chosen, ...ALWAYS_ON])];
}

function readConfigFile(path: string, required: boolean): RawSettings & { path?: string } {
  if (!existsSync(path)) {
    if (required) throw new ConfigError(`MACPILOT_CONFIG: ${path} does not exist`);
    return {};
  }
  if (statSync(path).isDirectory()) {
    throw new ConfigError(
      `${required ? 'MACPILOT_CONFIG: ' : ''}${path} is a folder; name the JSON file in it`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON (${oneLine((error as Error).message)})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new ConfigError(
      `${path}: expected a JSON object of settings, e.g. {"mode": "safe"} (docs/configuration.md shows each key)`,
    );
  }
  // A misspelt key would leave its setting at the default without a word (a deny list that denies nothing).
  const known = Object.keys(FileConfig.shape);
  const unknown = Object.keys(json).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    const near = nearestNames(unknown, known);
    throw new ConfigError(
      `${path}: unknown key "${unknown}"${near.length > 0 ? `; did you mean "${near[0]}"?` : ''} (docs/configuration.md lists the keys)`,
    );
  }
  const parsed = FileConfig.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.length ? `"${issue.path.join('.')}": ` : '';
    throw new ConfigError(
      `${path}: ${key}${issue?.message ?? 'invalid'} (docs/configuration.md shows each key with an example)`,
    );
  }
  return { ...parsed.data, path };
}

/** The accessibility setting as the helper takes it: its value, where it was set, how to set it to "leave". */
export const accessibilitySetting = (config: Pick<Config, 'accessibility' | 'origins'>) => ({
  value: config.accessibility,
  setBy: config.origins.accessibility.where,
  leave: config.origins.accessibility.change('leave'),
});

/**
 * MACPILOT_CONTROL_DIR, checked for every command: `macpilot stop` finds the servers in that folder only when
 * all agree on it, which a relative path, read from wherever each was started, breaks.
 */
export function checkControlDir(env: NodeJS.ProcessEnv): void {
  const controlDir = env.MACPILOT_CONTROL_DIR;
  if (controlDir && !isAbsolute(controlDir)) {
    throw new ConfigError(
      `MACPILOT_CONTROL_DIR: "${controlDir}" is a relative path; give an absolute one (each macpilot would find another folder, by where it was started, and \`macpilot stop\` would not reach them)`,
    );
  }
}

export function loadConfig(
  flags: RawSettings = {},
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): Config {
  // Empty, as unset: `MACPILOT_CONFIG= macpilot …` means no file of one's own.
  const explicitFile = env.MACPILOT_CONFIG || undefined;
  checkControlDir(env);
  // Absolute, so that a refusal naming the file names it wherever the person reads it from.
  const filePath = resolve(
    explicitFile ?? join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'macpilot', 'config.json'),
  );
  const file = readConfigFile(filePath, explicitFile !== undefined);
  const fromEnv: RawSettings = {
    toolsets: env.MACPILOT_TOOLSETS,
    helperPath: env.MACPILOT_HELPER_PATH,
    logLevel: env.MACPILOT_LOG_LEVEL,
    host: env.MACPILOT_HTTP_HOST,
    port: env.MACPILOT_HTTP_PORT,
    httpToken: env.MACPILOT_HTTP_TOKEN,
    rateLimits: env.MACPILOT_RATE_LIMITS,
    auditLog: env.MACPILOT_AUDIT_LOG,
    mode: env.MACPILOT_MODE,
    denyApps: env.MACPILOT_DENY_APPS,
    allowApps: env.MACPILOT_ALLOW_APPS,
    listDeniedApps: env.MACPILOT_LIST_DENIED_APPS,
    consent: env.MACPILOT_CONSENT,
    clipboardHistory: env.MACPILOT_CLIPBOARD_HISTORY,
    input: env.MACPILOT_INPUT,
    personFirst: env.MACPILOT_PERSON_FIRST,
    consolePictures: env.MACPILOT_CONSOLE_PICTURES,
    portal: env.MACPILOT_PORTAL,
    accessibility: env.MACPILOT_ACCESSIBILITY,
  };
  const givenBy = (key: SettingName): Given => {
    if (flags[key] !== undefined) return 'flag';
    if (fromEnv[key] !== undefined && String(fromEnv[key]).trim() !== '') return 'env';
    return file[key] !== undefined ? 'file' : 'default';
  };
  const pick = <K extends keyof RawSettings>(
    key: K,
  ): { value: RawSettings[K]; source: string } | undefined => {
    const given = givenBy(key);
    if (given === 'flag') return { value: flags[key], source: `--${key}` };
    if (given === 'env') return { value: fromEnv[key], source: SETTING_VARIABLES[key] };
    if (given === 'file') return { value: file[key], source: `${file.path}: "${key}"` };
    return undefined;
  };
  /**
   * A file path setting, absolute: in the file, `~/` is the home folder and a relative path is the file's
   * folder's (the file is read from wherever an MCP client starts macpilot); elsewhere, the working folder's.
   */
  const pickPath = (key: 'helperPath' | 'auditLog') => {
    const setting = pick(key);
    const value = setting?.value;
    if (setting === undefined || value === undefined) return setting;
    // "off", in any case, as every word a setting takes.
    if (isOff(value)) return { ...setting, value: 'off' };
    if (value.trim() === '') {
      throw new ConfigError(
        `${setting.source}: the path is empty; give a file's path${key === 'auditLog' ? ', or "off"' : ''}`,
      );
    }
    const fromFile = givenBy(key) === 'file';
    const path = fromFile ? value.replace(/^~(?=\/|$)/, home) : value;
    return { ...setting, value: fromFile ? resolve(dirname(filePath), path) : resolve(path) };
  };
  const origins = Object.fromEntries(
    (Object.keys(SETTING_VARIABLES) as SettingName[]).map((key) => [
      key,
      originOf(key, givenBy(key), filePath),
    ]),
  ) as Record<SettingName, SettingOrigin>;

  const toolsets = pick('toolsets');
  const mode = oneOf(pick('mode'), MODES, 'mode') ?? 'full';
  const logLevel = oneOf(pick('logLevel'), LOG_LEVELS, 'log level');
  const rateLimits = pick('rateLimits');
  const auditLog = auditLogFile(pickPath('auditLog')) ?? defaultAuditLog(env, home);
  // A wrong value in the file stops macpilot even where a flag or the environment overrides it: the next start
  // without them would fail on it, and the file is the person's to fix now.
  const inFile = <K extends keyof RawSettings>(key: K) =>
    file[key] === undefined || givenBy(key) === 'file'
      ? undefined
      : { value: file[key], source: `${file.path}: "${key}"` };
  const fileToolsets = inFile('toolsets');
  if (fileToolsets) parseToolsets(fileToolsets.value ?? '', fileToolsets.source);
  const fileLimits = inFile('rateLimits');
  if (fileLimits) parseRateLimits(fileLimits.value ?? '', fileLimits.source);
  oneOf(inFile('logLevel'), LOG_LEVELS, 'log level');
  oneOf(inFile('mode'), MODES, 'mode');
  oneOf(inFile('consent'), CONSENTS, 'consent');
  oneOf(inFile('input'), INPUT_MODES, 'input mode');
  oneOf(inFile('portal'), PORTAL_USES, 'portal setting');
  oneOf(inFile('accessibility'), ACCESSIBILITY_USES, 'accessibility setting');
  oneOf(inFile('clipboardHistory'), ON_OFF, 'clipboard history setting');
  for (const key of ['listDeniedApps', 'personFirst', 'consolePictures'] as const)
    oneOf(inFile(key), ON_OFF, 'setting');
  return {
    toolsets: toolsets ? parseToolsets(toolsets.value ?? '', toolsets.source) : [...DEFAULT_TOOLSETS],
    helperPath: helperPathOf(pickPath('helperPath')),
    logLevel: logLevel ?? 'warn',
    http: () => {
      // A token of spaces alone counts as unset, as any variable set to nothing does: with no token elsewhere, the
      // server would serve without one. It is refused instead, whatever else gives a token.
      const blank = env.MACPILOT_HTTP_TOKEN;
      if (flags.httpToken === undefined && blank !== undefined && blank !== '' && blank.trim() === '') {
        throw new ConfigError(
          `${SETTING_VARIABLES.httpToken}: holds only spaces; give a secret of ${MIN_TOKEN_LENGTH}+ characters, or unset it`,
        );
      }
      return httpSettings(pick('host'), pick('port'), pick('httpToken'), origins.httpToken);
    },
    mode,
    denyApps: appList(pick('denyApps'), 'or "none" for no deny list'),
    allowApps: appList(pick('allowApps'), 'or leave it out to allow every app'),
    listDeniedApps: oneOf(pick('listDeniedApps'), ON_OFF, 'setting') === 'on',
    consent: oneOf(pick('consent'), CONSENTS, 'consent') ?? 'ask',
    clipboardHistory: oneOf(pick('clipboardHistory'), ON_OFF, 'clipboard history setting') !== 'off',
    input: oneOf(pick('input'), INPUT_MODES, 'input mode') ?? 'foreground',
    portal: oneOf(pick('portal'), PORTAL_USES, 'portal setting') ?? 'auto',
    accessibility: oneOf(pick('accessibility'), ACCESSIBILITY_USES, 'accessibility setting') ?? 'on',
    personFirst: (oneOf(pick('personFirst'), ON_OFF, 'setting') ?? (mode === 'safe' ? 'on' : 'off')) === 'on',
    consolePictures:
      (oneOf(pick('consolePictures'), ON_OFF, 'setting') ?? (mode === 'read-only' ? 'off' : 'on')) === 'on',
    rateLimits: rateLimits
      ? parseRateLimits(rateLimits.value ?? '', rateLimits.source)
      : { ...DEFAULT_RATE_LIMITS },
    auditLog: auditLog === 'off' ? undefined : auditLog,
    configFile: file.path,
    origins:
      mode === 'safe' && givenBy('personFirst') === 'default'
        ? {
            ...origins,
            personFirst: {
              ...origins.personFirst,
              where: `safe mode's default (safe mode from ${origins.mode.where})`,
            },
          }
        : origins,
  };
}

/** A helper given by path: it must be there, and a binary must be executable. */
function helperPathOf(
  setting: { value: string | undefined; source: string } | undefined,
): string | undefined {
  if (setting?.value === undefined) return undefined;
  const path = setting.value;
  const use =
    'give the path of a macpilot helper (a .js file, an executable or a .app bundle), or unset it to use the bundled one';
  if (!existsSync(path)) throw new ConfigError(`${setting.source}: ${path} does not exist; ${use}`);
  const bundle = path.replace(/\/+$/, '').endsWith('.app');
  // A folder is executable (searchable) too: only a .app bundle is a folder that is a helper.
  if (!bundle && statSync(path).isDirectory()) {
    throw new ConfigError(`${setting.source}: ${path} is a folder; ${use}`);
  }
  if (!path.endsWith('.js') && !bundle) {
    try {
      accessSync(path, constants.X_OK);
    } catch {
      throw new ConfigError(`${setting.source}: ${path} is not executable (chmod +x it); ${use}`);
    }
  }
  return path;
}

type Given = 'flag' | 'env' | 'file' | 'default';

const USUAL_CONFIG_FILE = '~/.config/macpilot/config.json';

/** A setting left at its default, with the config file at its usual place. */
export const defaultOrigin = (key: SettingName): SettingOrigin => originOf(key, 'default', USUAL_CONFIG_FILE);

/** A setting given in the environment: what guards assume of a value they are given without its origin. */
export const environmentOrigin = (key: SettingName): SettingOrigin => originOf(key, 'env', USUAL_CONFIG_FILE);

/** A value as a shell word: quoted when it holds a space or another character the shell reads. */
const shellWord = (value: string): string =>
  /^[\w.,:@%+=/-]*$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;

/** Where `key` was given, and how a person gives it another value there; a default is changed in either place. */
function originOf(key: SettingName, given: Given, file: string): SettingOrigin {
  const where = whereGiven(key, given, file);
  return {
    ...where,
    changeAndRestart: (value) =>
      given === 'flag'
        ? `restart macpilot with --${key} ${value}`
        : `${where.change(value)}, then restart macpilot`,
  };
}

function whereGiven(key: SettingName, given: Given, file: string): Omit<SettingOrigin, 'changeAndRestart'> {
  const variable = SETTING_VARIABLES[key];
  const inFile = (value: string) => `"${key}": ${JSON.stringify(value)} in ${file}`;
  switch (given) {
    case 'flag':
      return { where: `the flag --${key}`, change: (value) => `start macpilot with --${key} ${value}` };
    case 'env':
      return {
        where: `the environment variable ${variable}`,
        change: (value) =>
          `set ${variable}=${shellWord(value)} where macpilot is started (the MCP client's server entry or your shell)`,
      };
    case 'file':
      return { where: `"${key}" in ${file}`, change: (value) => `set ${inFile(value)}` };
    case 'default':
      return {
        where: `the default of ${variable}`,
        change: (value) =>
          `set ${variable}=${shellWord(value)} where macpilot is started, or ${inFile(value)}`,
      };
  }
}

/** `calls_per_second=20,concurrent=4`: the limits named, each a positive integer; the others keep their default. */
export function parseRateLimits(value: string, source: string): RateLimits {
  const limits: RateLimits = { ...DEFAULT_RATE_LIMITS };
  const items = value.split(',').map((part) => part.trim());
  const seen = new Set<string>();
  for (const item of items.filter(Boolean)) {
    const [name = '', amount = ''] = item.split('=').map((part) => part.trim());
    if (seen.has(name)) throw new ConfigError(`${source}: ${name} is given twice; give each limit once`);
    seen.add(name);
    const key = Object.hasOwn(RATE_LIMIT_KEYS, name) ? RATE_LIMIT_KEYS[name] : undefined;
    if (key === undefined) {
      throw new ConfigError(
        `${source}: unknown rate limit "${name}"; valid: ${Object.keys(RATE_LIMIT_KEYS).join(', ')}`,
      );
    }
    if (!/^[1-9]\d{0,6}$/.test(amount)) {
      throw new ConfigError(
        `${source}: ${name} must be a whole number from 1 to ${MAX_RATE_LIMIT}, not "${amount}"`,
      );
    }
    limits[key] = Number(amount);
  }
  return limits;
}

/** Kernel filesystems, where no log can be kept (creating a folder in /proc never returns). */
const SYSTEM_FOLDERS = /^\/(proc|sys)(\/|$)/;

/** The audit log's file, refused where no file can be: a folder, or inside /proc or /sys. */
function auditLogFile(
  setting: { value: string | undefined; source: string } | undefined,
): string | undefined {
  const path = setting?.value;
  if (setting === undefined || path === undefined || isOff(path)) return path;
  if (SYSTEM_FOLDERS.test(path)) {
    throw new ConfigError(
      `${setting.source}: ${path} is in a kernel filesystem, where no log can be kept; give a file's path in your own folders, or "off"`,
    );
  }
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new ConfigError(
      `${setting.source}: ${path} is a folder; give the path of a file in it (e.g. ${join(path, 'audit.jsonl')}), or "off"`,
    );
  }
  let above = dirname(path);
  while (!existsSync(above) && dirname(above) !== above) above = dirname(above);
  if (existsSync(above) && !statSync(above).isDirectory()) {
    throw new ConfigError(
      `${setting.source}: ${above} is a file, so no log can be kept under it; give the path of a file in a folder, or "off"`,
    );
  }
  return path;
}

/** The user's state directory: ~/Library/Logs on macOS, $XDG_STATE_HOME (~/.local/state) elsewhere. */
function defaultAuditLog(env: NodeJS.ProcessEnv, home: string): string {
  const base =
    process.platform === 'darwin'
      ? join(home, 'Library', 'Logs')
      : env.XDG_STATE_HOME || join(home, '.local', 'state');
  return join(base, 'macpilot', 'audit.jsonl');
}

export const SETTING_VARIABLES: Record<SettingName, string> = {
  toolsets: 'MACPILOT_TOOLSETS',
  helperPath: 'MACPILOT_HELPER_PATH',
  logLevel: 'MACPILOT_LOG_LEVEL',
  host: 'MACPILOT_HTTP_HOST',
  port: 'MACPILOT_HTTP_PORT',
  httpToken: 'MACPILOT_HTTP_TOKEN',
  rateLimits: 'MACPILOT_RATE_LIMITS',
  auditLog: 'MACPILOT_AUDIT_LOG',
  mode: 'MACPILOT_MODE',
  denyApps: 'MACPILOT_DENY_APPS',
  allowApps: 'MACPILOT_ALLOW_APPS',
  listDeniedApps: 'MACPILOT_LIST_DENIED_APPS',
  consent: 'MACPILOT_CONSENT',
  clipboardHistory: 'MACPILOT_CLIPBOARD_HISTORY',
  input: 'MACPILOT_INPUT',
  personFirst: 'MACPILOT_PERSON_FIRST',
  consolePictures: 'MACPILOT_CONSOLE_PICTURES',
  portal: 'MACPILOT_PORTAL',
  accessibility: 'MACPILOT_ACCESSIBILITY',
};

function oneOf<T extends string>(
  setting: { value: unknown; source: string } | undefined,
  valid: readonly T[],
  what: string,
): T | undefined {
  if (!setting) return undefined;
  const value = String(setting.value).trim().toLowerCase();
  const found = valid.find((v) => v === value);
  if (found) return found;
  throw new ConfigError(
    `${setting.source}: unknown ${what} ${JSON.stringify(setting.value)}; valid: ${valid.join(', ')}`,
  );
}

/** Comma-separated app names or bundle ids (or a JSON array in the file). */
function appList(
  setting: { value: string | string[] | undefined; source: string } | undefined,
  orElse: string,
): string[] | undefined {
  if (!setting) return undefined;
  const raw = setting.value ?? [];
  const names = (Array.isArray(raw) ? raw : raw.split(',')).map((n) => n.trim()).filter(Boolean);
  if (names.length === 0) {
    throw new ConfigError(
      `${setting.source}: lists no app; give comma-separated app names or bundle ids, ${orElse}`,
    );
  }
  return names;
}

export const DEFAULT_HTTP_PORT = 7420;

export interface HttpSettings {
  host: string;
  port: number;
  token?: string;
}
const MIN_TOKEN_LENGTH = 16;
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}

function httpSettings(
  host: { value: string | undefined; source: string } | undefined,
  port: { value: string | number | undefined; source: string } | undefined,
  token: { value: string | undefined; source: string } | undefined,
  tokenOrigin: SettingOrigin,
): HttpSettings {
  // An IPv6 address may come in the brackets of a URL ([::1]), as macpilot prints it.
  const given = host?.value ?? '127.0.0.1';
  const bracketed = /^\[(.*)\]$/.exec(given)?.[1];
  const address = bracketed !== undefined && isIP(bracketed) === 6 ? bracketed : given;
  if (isIP(address) === 0 && !HOSTNAME.test(address)) {
    throw new ConfigError(`${host?.source}: "${address}" is not an IP address or a host name`);
  }
  const portText = String(port?.value ?? DEFAULT_HTTP_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new ConfigError(`${port?.source}: "${portText}" is not a port; valid: 0 (any free port) to 65535`);
  }
  if (token?.value !== undefined && token.value.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(`${token.source}: the token must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  // An HTTP header's value loses its spaces at either end: such a token could never be matched.
  if (token?.value !== undefined && token.value.trim() !== token.value) {
    throw new ConfigError(
      `${token.source}: the token must not begin or end with a space, which an Authorization header loses`,
    );
  }
  if (!isLoopback(address) && token?.value === undefined) {
    throw new ConfigError(
      `${host?.source}: listening on "${address}" lets other machines connect; give a token ` +
        `(a secret of ${MIN_TOKEN_LENGTH}+ characters that clients send as "Authorization: Bearer <token>"): ` +
        `${tokenOrigin.change('SECRET')}; or listen on 127.0.0.1`,
    );
  }
  return { host: address, port: Number(portText), token: token?.value };
}
