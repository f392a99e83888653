/** The macOS commands the services run, by absolute path (never looked up in PATH); tests point them at fakes. */
export interface MacCommands {
  osascript: string;
  osacompile: string;
  swVers: string;
  sysctl: string;
  pmset: string;
}

export const MAC_COMMANDS: MacCommands = {
  osascript: '/usr/bin/osascript',
  osacompile: '/usr/bin/osacompile',
  swVers: '/usr/bin/sw_vers',
  sysctl: '/usr/sbin/sysctl',
  pmset: '/usr/bin/pmset',
};

/** For the small read-only commands (sw_vers, sysctl, pmset): they answer at once or something is wrong. */
export const COMMAND_TIMEOUT_MS = 10_000;

/** What to do when one of them is missing: they ship with macOS, so the path was changed or the system is damaged. */
export const SHIPS_WITH_MACOS =
  'it ships with macOS: check that the file exists and is executable, and run `macpilot doctor`';
