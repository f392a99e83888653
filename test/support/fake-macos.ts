/**
 * A directory of fake macOS commands (symlinks to fake-osascript.mjs), so the macOS services run on Linux: say what
 * each command answers, then read back the argv and stdin every call got.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MacCommands } from '../../src/platforms/macos/commands.js';

const FAKE = resolve(import.meta.dirname, 'fake-osascript.mjs');
export const FIXTURES = resolve(import.meta.dirname, '../fixtures/osascript');

export interface Answer {
  stdout?: string;
  /** A file under test/fixtures/osascript. */
  stdoutFixture?: string;
  stderr?: string;
  stderrFixture?: string;
  exitCode?: number;
  sleepMs?: number;
  ignoreSigterm?: boolean;
  /** A signal the fake sends itself, as if something else ended it. */
  signalSelf?: NodeJS.Signals;
}

export interface Call {
  command: string;
  argv: string[];
  stdin: string;
  /** For a command given `-o <file>`: the permission bits of the file's directory. */
  outputDirMode?: number;
}

const NAMES: Record<keyof MacCommands, string> = {
  osascript: 'osascript',
  osacompile: 'osacompile',
  swVers: 'sw_vers',
  sysctl: 'sysctl',
  pmset: 'pmset',
};

export class FakeMac {
  readonly dir = mkdtempSync(join(tmpdir(), 'macpilot-fake-mac-'));
  readonly commands: MacCommands;

  constructor() {
    const entries = Object.entries(NAMES).map(([key, name]) => {
      symlinkSync(FAKE, join(this.dir, name));
      return [key, join(this.dir, name)];
    });
    this.commands = Object.fromEntries(entries) as unknown as MacCommands;
  }

  /** What the command answers from now on: one answer per call, in turn; the last one repeats. */
  answer(command: keyof MacCommands, ...answers: Answer[]): void {
    const plans = answers.map(({ stdoutFixture, stderrFixture, ...rest }) => ({
      ...rest,
      ...(stdoutFixture ? { stdoutFile: join(FIXTURES, stdoutFixture) } : {}),
      ...(stderrFixture ? { stderrFile: join(FIXTURES, stderrFixture) } : {}),
    }));
    writeFileSync(join(this.dir, `${NAMES[command]}.json`), JSON.stringify(plans));
    rmSync(join(this.dir, `${NAMES[command]}.count`), { force: true });
  }

  calls(): Call[] {
    const file = join(this.dir, 'calls.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Call);
  }

  /** The one call made since the last reset. */
  lastCall(): Call {
    const calls = this.calls();
    const last = calls.at(-1);
    if (!last) throw new Error('no call was made');
    return last;
  }

  reset(): void {
    rmSync(join(this.dir, 'calls.jsonl'), { force: true });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
