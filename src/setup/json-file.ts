/**
 * Adds or replaces one server in a client's JSON configuration file and leaves everything else in it as it was.
 * A file that is not a JSON object is never touched: the user's hand edits are worth more than our entry.
 */
import { oneLine } from '../text.js';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { MacpilotError } from '../errors.js';

export interface JsonChange {
  file: string;
  /** The file's text before, when it exists. */
  before?: string;
  after: string;
  /** An entry of that name was there and is replaced. */
  replaces: boolean;
  /** The entry it replaces, as it was. */
  previous?: unknown;
  /** The names of the other servers, kept. */
  kept: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function unusable(file: string, why: string): MacpilotError {
  return new MacpilotError({
    what: `Cannot add macpilot to ${file}`,
    why,
    next: 'fix the file by hand (or move it away) and run setup again; it was left as it was',
    kind: 'config_file_unusable',
  });
}

export function planJsonChange(
  file: string,
  key: string,
  name: string,
  entry: Record<string, unknown>,
): JsonChange {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  let config: unknown = {};
  if (before !== undefined && before.trim() !== '') {
    try {
      config = JSON.parse(before);
    } catch (error) {
      // VS Code and Cursor read JSON with comments and trailing commas; rewriting such a file would drop them.
      if (/^\s*\/\/|\/\*/m.test(before) || /,\s*[}\]]/.test(before)) {
        throw new MacpilotError({
          what: `Cannot add macpilot to ${file}`,
          why: 'it has comments or trailing commas (JSON with comments, which its client reads), and rewriting it would drop them',
          next: `add this under "${key}" by hand, then restart the client: ${JSON.stringify({ [name]: entry })}`,
          kind: 'config_file_has_comments',
        });
      }
      throw unusable(file, `it is not valid JSON (${oneLine((error as Error).message)})`);
    }
  }
  if (!isObject(config)) throw unusable(file, 'it does not hold a JSON object');
  const servers = config[key] ?? {};
  if (!isObject(servers)) throw unusable(file, `its "${key}" is not an object`);
  const after = { ...config, [key]: { ...servers, [name]: entry } };
  return {
    file,
    before,
    after: `${JSON.stringify(after, null, 2)}\n`,
    replaces: name in servers,
    previous: servers[name],
    kept: Object.keys(servers).filter((other) => other !== name),
  };
}

/** Where backUp puts the copy, for a plan that has not made it yet. */
export const backupPlace = (file: string): string => `${file}.<UTC date and time>.bak`;

/** A copy of `file` beside it, named by the time, so that no earlier backup is overwritten. */
export function backUp(file: string, now: Date = new Date()): string {
  const backup = `${file}.${now.toISOString().replace(/[:.]/g, '-')}.bak`;
  copyFileSync(file, backup);
  return backup;
}

/** Writes the change through a temporary file renamed over the original: never a half-written config. */
export function applyJsonChange(change: JsonChange, now?: Date): { backup?: string } {
  mkdirSync(dirname(change.file), { recursive: true });
  const backup = change.before === undefined ? undefined : backUp(change.file, now);
  // A config that is a symlink (dotfiles kept in a repository) is written where it points: renamed over, the
  // link itself would become a plain file and the file it pointed to would keep the old text.
  const file = change.before === undefined ? change.file : realpathSync(change.file);
  const temporary = `${file}.macpilot-${process.pid}.tmp`;
  // The original's permissions carry over (~/.claude.json holds credentials); a new file is the user's alone.
  const mode = change.before === undefined ? 0o600 : statSync(file).mode & 0o777;
  writeFileSync(temporary, change.after, { mode });
  renameSync(temporary, file);
  return { backup };
}
