/** File paths an agent gives: absolute (or ~), normalized, and checked to exist before anything acts on them. */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { MacpilotError } from '../errors.js';

function absolute(input: string): string {
  const expanded = input === '~' || input.startsWith('~/') ? homedir() + input.slice(1) : input;
  if (!isAbsolute(expanded)) {
    throw new MacpilotError({
      what: `Not an absolute path: ${JSON.stringify(input)}`,
      why: "a relative path would be taken from the server's working folder, which is not the user's",
      next: 'give the full path, e.g. ~/Documents/report.pdf (or /home/ada/Documents/report.pdf on Linux, /Users/ada/Documents/report.pdf on macOS)',
      kind: 'path_not_absolute',
    });
  }
  return resolve(expanded);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The path, made absolute and normalized; a path that does not exist is an error naming the closest folder that does. */
export async function existingPath(input: string): Promise<string> {
  const path = absolute(input);
  if (await exists(path)) return path;
  let parent = dirname(path);
  while (parent !== dirname(parent) && !(await exists(parent))) parent = dirname(parent);
  throw new MacpilotError({
    what: `No such file or folder: ${path}`,
    why: `nothing exists at that path; the closest folder that exists is ${parent}`,
    next: 'check the spelling (names are case-sensitive on Linux and often on macOS), or reveal the folder that should hold it',
    kind: 'file_not_found',
  });
}
