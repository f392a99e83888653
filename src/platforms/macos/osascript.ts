/**
 * Runs scripts through /usr/bin/osascript: the source on stdin, the program file given as "-", so that every argv
 * entry after it is a value handed to the script's run handler and never read as an option (osascript(1): "to pass
 * arguments to a STDIN-read script, you must explicitly specify '-' for the script name").
 *
 * Two entry points: runConstant for macpilot's own scripts (a ConstantScript from scripts.ts, plus values), and
 * runUserScript for a script the user wrote, which takes no values at all.
 */
import type { CallOptions, ScriptLanguage } from '../../services/types.js';
import { SHIPS_WITH_MACOS } from './commands.js';
import { scriptError } from './osascript-errors.js';
import { OUTPUT_LIMIT, runProcess, seconds, type ProcessOutcome } from '../../services/process.js';
import type { ConstantScript } from './scripts.js';

export const DEFAULT_SCRIPT_TIMEOUT_MS = 30_000;

export const OSA_LANGUAGES: Record<ScriptLanguage, string> = {
  applescript: 'AppleScript',
  jxa: 'JavaScript',
};

export interface ScriptOutput {
  /** stdout without its final newline. */
  output: string;
  /** stderr: console.log in JXA, `log` in AppleScript. */
  log: string;
  durationMs: number;
  /** True when output or log reached OUTPUT_LIMIT and osascript was stopped there. */
  cut: boolean;
}

/** osascript's argv: the language, "-" for the program on stdin, then the values, each one argv entry. */
export function osascriptArgs(language: ScriptLanguage, values: readonly string[]): string[] {
  return ['-l', OSA_LANGUAGES[language], '-', ...values];
}

export class Osascript {
  constructor(private readonly executable = '/usr/bin/osascript') {}

  /** One of macpilot's scripts with its values; its JSON result, parsed. A failure throws a MacpilotError. */
  async runConstant(
    script: ConstantScript,
    values: readonly string[],
    options: CallOptions & { timeoutMs?: number } = {},
  ): Promise<unknown> {
    const outcome = await this.run(script.source, script.language, values, script.action, options);
    if (outcome.cut) throw new Error(`${script.name} printed more than ${OUTPUT_LIMIT} characters`);
    try {
      return JSON.parse(outcome.output) as unknown;
    } catch (error) {
      throw new Error(`${script.name} answered no JSON: ${outcome.output.slice(0, 200)}`, { cause: error });
    }
  }

  /** A user's own script, run as it is; it gets no values. A failure throws a MacpilotError. */
  async runUserScript(
    source: string,
    language: ScriptLanguage,
    options: CallOptions & { timeoutMs?: number } = {},
  ): Promise<ScriptOutput> {
    return this.run(source, language, [], 'Running your script', options);
  }

  private async run(
    source: string,
    language: ScriptLanguage,
    values: readonly string[],
    action: string,
    options: CallOptions & { timeoutMs?: number },
  ): Promise<ScriptOutput> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS;
    const outcome: ProcessOutcome = await runProcess({
      file: this.executable,
      args: osascriptArgs(language, values),
      input: source,
      timeoutMs,
      signal: options.signal,
      action,
      notInstalled: SHIPS_WITH_MACOS,
      onTimeout: `the app the script talks to may be busy, or waiting for a dialog or a permission prompt: answer it on the Mac and try again; run_applescript accepts a longer timeout_ms (the limit was ${seconds(timeoutMs)})`,
    });
    if (outcome.exitCode !== 0 && !outcome.outputCut) throw scriptError(outcome.stderr, action);
    return {
      output: outcome.stdout.replace(/\n$/, ''),
      log: outcome.stderr.trim(),
      durationMs: outcome.durationMs,
      cut: outcome.outputCut,
    };
  }
}
