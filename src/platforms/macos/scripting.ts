/**
 * The user's own AppleScript or JXA: run through the runner's user-script entry point (no values), or compiled
 * without running by osacompile into a private temporary directory that is removed afterwards. Compiling
 * AppleScript may launch an app named in a `tell` block, to read its scripting dictionary.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptCheck, ScriptingService, ScriptRun } from '../../services/types.js';
import { DEFAULT_SCRIPT_TIMEOUT_MS, OSA_LANGUAGES, type Osascript } from './osascript.js';
import { SHIPS_WITH_MACOS } from './commands.js';
import { parseScriptFailure, where } from './osascript-errors.js';
import { OUTPUT_LIMIT, runProcess } from '../../services/process.js';

/** JXA's result as JSON, when it is JSON. */
export function jsonOf(output: string): unknown {
  if (output === '') return undefined;
  try {
    return JSON.parse(output) as unknown;
  } catch {
    return undefined;
  }
}

export function macosScripting(osascript: Osascript, osacompile: string): ScriptingService {
  return {
    async run(request, options = {}): Promise<ScriptRun> {
      const result = await osascript.runUserScript(request.script, request.language, {
        ...options,
        timeoutMs: request.timeoutMs,
      });
      const output = result.output.trim();
      const json = request.language === 'jxa' && !result.cut ? jsonOf(output) : undefined;
      return {
        output: result.cut
          ? `${output}\n[cut at ${OUTPUT_LIMIT} characters: the script was stopped there]`
          : output,
        ...(json === undefined ? {} : { json }),
        log: result.log,
        durationMs: result.durationMs,
      };
    },

    async validate(request, options = {}): Promise<ScriptCheck> {
      const dir = await mkdtemp(join(tmpdir(), 'macpilot-check-')); // mode 0700
      try {
        const outcome = await runProcess({
          file: osacompile,
          args: ['-l', OSA_LANGUAGES[request.language], '-o', join(dir, 'check.scpt')],
          input: request.script,
          timeoutMs: DEFAULT_SCRIPT_TIMEOUT_MS,
          signal: options.signal,
          action: 'Compiling your script',
          notInstalled: SHIPS_WITH_MACOS,
          onTimeout:
            'compiling waits for the apps named in `tell` blocks to answer: open them first, then try again',
        });
        if (outcome.exitCode === 0) return { valid: true };
        const failure = parseScriptFailure(outcome.stderr);
        const code = failure.number === undefined ? '' : ` (error ${failure.number})`;
        return { valid: false, error: `${failure.message}${where(failure)}${code}` };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
