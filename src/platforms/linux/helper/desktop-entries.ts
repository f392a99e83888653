/**
 * Installed .desktop entries: the only things apps.launch will start. Names resolve by Name=, desktop file id
 * or the Exec binary, case-insensitively; Exec field codes (%f, %U, ...) are dropped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

export interface DesktopEntry {
  /** org.xfce.mousepad for org.xfce.mousepad.desktop. */
  id: string;
  name: string;
  /** argv with field codes removed. */
  argv: string[];
  binary: string;
}

function dataDirs(env: NodeJS.ProcessEnv): string[] {
  const home = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local/share');
  const system = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter(Boolean);
  return [home, ...system].map((d) => join(d, 'applications'));
}

/** Splits an Exec value into arguments (desktop entry quoting rules) and drops field codes. */
export function parseExec(exec: string): string[] {
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let inArg = false;
  for (let i = 0; i < exec.length; i++) {
    const c = exec[i] ?? '';
    if (quoted) {
      if (c === '\\' && i + 1 < exec.length) current += exec[++i];
      else if (c === '"') quoted = false;
      else current += c;
    } else if (c === '"') {
      quoted = true;
      inArg = true;
    } else if (c === ' ' || c === '\t') {
      if (inArg) args.push(current);
      current = '';
      inArg = false;
    } else {
      current += c;
      inArg = true;
    }
  }
  if (inArg) args.push(current);
  return args
    .filter((a) => !/^%[a-zA-Z]$/.test(a))
    .map((a) => a.replace(/%%/g, '%'))
    .filter((a) => !/%[a-zA-Z]/.test(a));
}

function parseEntry(id: string, text: string): DesktopEntry | undefined {
  const fields = new Map<string, string>();
  let inMain = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[')) inMain = trimmed === '[Desktop Entry]';
    else if (inMain) {
      const eq = trimmed.indexOf('=');
      if (eq > 0) fields.set(trimmed.slice(0, eq).trim(), trimmed.slice(eq + 1).trim());
    }
  }
  if (fields.get('Type') !== 'Application' || fields.get('Hidden') === 'true') return undefined;
  const argv = parseExec(fields.get('Exec') ?? '');
  const binary = argv[0];
  if (!binary) return undefined;
  return { id, name: fields.get('Name') ?? id, argv, binary: basename(binary) };
}

export function listEntries(env: NodeJS.ProcessEnv): DesktopEntry[] {
  const byId = new Map<string, DesktopEntry>();
  for (const dir of dataDirs(env)) {
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    for (const file of files) {
      if (!file.endsWith('.desktop')) continue;
      const id = file.slice(0, -'.desktop'.length);
      if (byId.has(id)) continue; // earlier directories take precedence
      try {
        const entry = parseEntry(id, readFileSync(join(dir, file), 'utf8'));
        if (entry) byId.set(id, entry);
      } catch {
        // unreadable entry: not launchable
      }
    }
  }
  return [...byId.values()];
}

export function resolveEntry(entries: DesktopEntry[], name: string): DesktopEntry | undefined {
  const wanted = name
    .trim()
    .toLowerCase()
    .replace(/\.desktop$/, '');
  return (
    entries.find((e) => e.id.toLowerCase() === wanted) ??
    entries.find((e) => e.name.toLowerCase() === wanted) ??
    // The plain entry (`mousepad %U`) before variants such as `mousepad --preferences`.
    entries.filter((e) => e.binary.toLowerCase() === wanted).sort((a, b) => a.argv.length - b.argv.length)[0]
  );
}

/** The entry an app process most likely came from, by its binary or registry name. */
export function entryForProcess(entries: DesktopEntry[], binary: string, appName: string) {
  const candidates = [binary, appName].map((s) => s.toLowerCase()).filter(Boolean);
  return entries
    .filter((e) => candidates.includes(e.binary.toLowerCase()))
    .sort((a, b) => a.argv.length - b.argv.length)[0];
}
