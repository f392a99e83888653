/**
 * A command line read against its command's options, with mistakes said in the command's words: an unknown
 * option with the nearest ones, an option missing its value, and numbers below zero (a point left of the main
 * display, a slider's value) taken as the values they are rather than as options.
 */
import { parseArgs } from 'node:util';
import { nearestNames } from '../text.js';
import { type CommandSpec, type OptionSpec, optionsOf } from './commands.js';
import { UsageError } from './usage-error.js';

export type Values = Record<string, string | boolean | undefined>;

/** "-5", "-100,200", "-0.5": a value, never an option (no option of macpilot's is a digit). */
const BELOW_ZERO = /^-\d/;

export function parseCommandLine(
  command: CommandSpec,
  args: readonly string[],
): { values: Values; positionals: string[] } {
  const options = optionsOf(command);
  const byName = new Map(options.map((o) => [o.name, o]));
  const byShort = new Map(options.filter((o) => o.short).map((o) => [o.short as string, o]));
  const optionAt = (arg: string): OptionSpec | undefined =>
    arg.startsWith('--')
      ? byName.get(arg.slice(2))
      : /^-[^-]$/.test(arg)
        ? byShort.get(arg[1] as string)
        : undefined;

  // `--region -10,0,50,50`: joined, so the value below zero stays the option's.
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (optionAt(arg)?.value && next !== undefined && BELOW_ZERO.test(next)) {
      joined.push(`${arg.startsWith('--') ? arg : `--${optionAt(arg)?.name}`}=${next}`);
      i++;
    } else joined.push(arg);
  }

  // A value below zero left standing alone (`click -5,-5`) is a positional: parseArgs would read it as a group
  // of short options, and a "-" inside one as the end of the options. It goes in as a placeholder.
  const standIns = new Map<string, string>();
  const given = joined.map((arg, i) => {
    if (!BELOW_ZERO.test(arg)) return arg;
    const standIn = `\u0000below-zero-${i}`;
    standIns.set(standIn, arg);
    return standIn;
  });
  const { tokens } = parseArgs({
    args: given,
    options: Object.fromEntries(
      options.map((o) => [
        o.name,
        {
          type: o.value ? ('string' as const) : ('boolean' as const),
          ...(o.short ? { short: o.short } : {}),
        },
      ]),
    ),
    allowPositionals: true,
    strict: false,
    tokens: true,
  });

  const values: Values = {};
  const positionals: { index: number; value: string }[] = [];
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      positionals.push({ index: token.index, value: standIns.get(token.value) ?? token.value });
      continue;
    }
    const raw = joined[token.index] as string;
    const option = byName.get(token.name);
    if (!option) throw unknownOption(command, raw.split('=')[0] ?? raw);
    // `--project --dry-run`: the next option is not this one's value (`--name=-x` passes one that starts so).
    const tookOption = !token.inlineValue && token.value !== undefined && /^-(?!\d)./.test(token.value);
    if (option.value && (token.value === undefined || tookOption)) {
      throw new UsageError(`${token.rawName} needs a value: ${token.rawName} ${option.value}`);
    }
    if (!option.value && token.inlineValue) {
      throw new UsageError(`--${option.name} takes no value; give it alone: --${option.name}`);
    }
    values[option.name] = option.value ? token.value : true;
  }
  return {
    values,
    positionals: positionals.sort((a, b) => a.index - b.index).map((p) => p.value),
  };
}

function unknownOption(command: CommandSpec, raw: string): UsageError {
  const names = optionsOf(command).map((o) => `--${o.name}`);
  const near = nearestNames(raw.startsWith('--') ? raw : `-${raw}`, names);
  const hint = near.length > 0 ? `did you mean ${near.join(' or ')}?` : `it takes ${names.join(', ')}`;
  // Only a command that takes text (to find, type, set, press) can mean it: the text then goes last, after --.
  const text =
    /<(text|value|combo)>/.test(command.args) && command.kind === 'tool'
      ? ` (text that starts with "-" goes last, after --: macpilot ${command.name} [options] -- ${raw})`
      : '';
  return new UsageError(`${command.name} has no option ${raw}: ${hint}${text}`);
}
