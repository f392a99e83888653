/**
 * The desktop beyond the accessibility tree: system facts, notifications, audio, the file manager, the status
 * bar and the platform's script language. Each platform provides the services it has a standard for
 * (src/platforms/index.ts); a tool whose service is missing is not listed there.
 */
import type { Toolset } from '../toolsets.js';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface SystemInfo {
  /** "macOS 14.5 (23F79)", "Debian GNU/Linux 12 (bookworm)". */
  os: string;
  /** Kernel name and release: "Darwin 23.5.0", "Linux 6.1.0-21-amd64". */
  kernel: string;
  /** Hardware model, when the machine says: "MacBookPro18,3", "ThinkPad X1 Carbon Gen 9". */
  model?: string;
  cpu: string;
  cpuCores: number;
  arch: string;
  memoryBytes: number;
  hostname: string;
  uptimeSeconds: number;
}

export type BatteryState = 'charging' | 'discharging' | 'full' | 'not charging' | 'unknown';

export interface Battery {
  name: string;
  /** 0-100, when the battery reports it. */
  percent?: number;
  state: BatteryState;
  /** Minutes to empty (discharging) or to full (charging), when known. */
  minutesRemaining?: number;
}

export type BatteryStatus =
  | { hasBattery: true; batteries: Battery[]; onExternalPower?: boolean }
  /** A desktop or virtual machine: `reason` says what was looked at. */
  | { hasBattery: false; reason: string; onExternalPower?: boolean };

export interface SystemInfoService {
  info(options?: CallOptions): Promise<SystemInfo>;
  battery(options?: CallOptions): Promise<BatteryStatus>;
}

export interface NotificationRequest {
  title: string;
  message: string;
  subtitle?: string;
  /** true: the platform's default sound; a string: a named sound ("Glass" on macOS, a freedesktop sound name on Linux). */
  sound?: boolean | string;
}

export interface NotificationReceipt {
  /** Who displayed it: "Notification Center", or the Linux daemon's name and version. */
  server: string;
  /** The daemon's id for the notification, where there is one. */
  id?: number;
}

export interface NotificationService {
  send(request: NotificationRequest, options?: CallOptions): Promise<NotificationReceipt>;
}

export interface AudioState {
  /** Output volume 0-100; null when the output device has no volume control (e.g. some HDMI outputs). */
  volume: number | null;
  muted: boolean;
  /** The output device, when the platform names it. */
  device?: string;
}

export interface AudioService {
  get(options?: CallOptions): Promise<AudioState>;
  setVolume(percent: number, options?: CallOptions): Promise<AudioState>;
  setMuted(muted: boolean, options?: CallOptions): Promise<AudioState>;
}

export interface RevealService {
  /** Shows `path` (absolute, existing) selected in the file manager; resolves to the file manager's name. */
  reveal(path: string, options?: CallOptions): Promise<{ fileManager: string }>;
}

export interface FinderService {
  /** POSIX paths of the items selected in the frontmost file manager window. */
  selectedFiles(options?: CallOptions): Promise<string[]>;
  /** The folder the frontmost file manager window shows; null when no window is open. */
  frontWindowPath(options?: CallOptions): Promise<string | null>;
}

export interface StatusBarItem {
  /** 0-based, left to right across the menu bar's extras. */
  position: number;
  /** The process that owns the item ("ControlCenter", "Dropbox"). */
  process: string;
  /** Its accessibility description or title ("Wi-Fi", "Battery"); may be empty. */
  description: string;
  bounds?: { x: number; y: number; width: number; height: number };
}

export interface StatusBarService {
  list(options?: CallOptions): Promise<StatusBarItem[]>;
  /** Clicks the item (opens its menu). */
  click(item: StatusBarItem, options?: CallOptions): Promise<void>;
  /**
   * Opens the item's menu (waiting for a lazily built menu to fill) and lists the items at `names`
   * (exact names, from the menu down; empty: the top level).
   */
  menuItems(item: StatusBarItem, names: string[], options?: CallOptions): Promise<string[]>;
  /** Opens the item's menu and clicks the menu item at `names` (exact names, from the menu down). */
  clickMenuItem(item: StatusBarItem, names: string[], options?: CallOptions): Promise<void>;
}

export type ScriptLanguage = 'applescript' | 'jxa';

export interface ScriptRun {
  /** What the script returned or printed (osascript's stdout), trimmed. */
  output: string;
  /** For JXA: the result parsed as JSON when it is JSON. */
  json?: unknown;
  /** Anything the script logged to stderr (console.log in JXA, `log` in AppleScript). */
  log: string;
  durationMs: number;
}

export type ScriptCheck = { valid: true } | { valid: false; error: string };

export interface ScriptingService {
  run(
    request: { script: string; language: ScriptLanguage; timeoutMs: number },
    options?: CallOptions,
  ): Promise<ScriptRun>;
  /** Compiles without running. */
  validate(
    request: { script: string; language: ScriptLanguage },
    options?: CallOptions,
  ): Promise<ScriptCheck>;
}

/** How a running process was started, read while it runs, and a way to start it that way again. */
export interface ProcessRestart {
  /** The command line, for the answer: the program and how many arguments it keeps. */
  command: string;
  /** Starts the program again (each toolkit's accessibility switch on); the new process's pid. */
  start(): Promise<number>;
}

export interface RelaunchService {
  /** Reads how process `pid` was started (its command line, environment and folder), before it quits. */
  prepare(pid: number): Promise<ProcessRestart>;
}

export interface Services {
  systemInfo?: SystemInfoService;
  notifications?: NotificationService;
  audio?: AudioService;
  reveal?: RevealService;
  finder?: FinderService;
  statusBar?: StatusBarService;
  scripting?: ScriptingService;
  relaunch?: RelaunchService;
}

export type ServiceName = keyof Services;

/** What `macpilot doctor` reports of an optional service: whether it works here and, if not, how to get it. */
export interface ServiceCheck {
  label: string;
  /** The toolsets whose tools need it. */
  toolsets: readonly Toolset[];
  check(): Promise<{ available: true; detail: string } | { available: false; detail: string; how: string }>;
}
