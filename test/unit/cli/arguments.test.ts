/** Command lines read against a command's options: values below zero, unknown options, missing values. */
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../src/cli/arguments.js';
import { commandSpec as command } from '../../../src/cli/commands.js';

describe('parseCommandLine', () => {
  it('reads options and positionals in their order', () => {
    expect(parseCommandLine(command('set'), ['p', '--format', 'json', 'v'])).toEqual({
      values: { format: 'json' },
      positionals: ['p', 'v'],
    });
    expect(parseCommandLine(command('click'), ['-y', 'p']).values).toEqual({ yes: true });
  });

  it('takes numbers below zero as values, alone or after an option', () => {
    expect(parseCommandLine(command('click'), ['-100,200']).positionals).toEqual(['-100,200']);
    // Both below zero: a "-" inside what parseArgs reads as a group of short options ended the options.
    expect(parseCommandLine(command('click'), ['-5,-5']).positionals).toEqual(['-5,-5']);
    expect(parseCommandLine(command('click'), ['-5,-5', '--button', 'right'])).toMatchObject({
      positionals: ['-5,-5'],
      values: { button: 'right' },
    });
    expect(parseCommandLine(command('set'), ['slider', '-5.5']).positionals).toEqual(['slider', '-5.5']);
    expect(parseCommandLine(command('screenshot'), ['--region', '-10,0,50,50']).values.region).toBe(
      '-10,0,50,50',
    );
    expect(parseCommandLine(command('type'), ['--', '-hello']).positionals).toEqual(['-hello']);
  });

  it('names the nearest option for one it does not know', () => {
    expect(() => parseCommandLine(command('tree'), ['--deph', '3'])).toThrow(
      /^tree has no option --deph: did you mean --depth\?$/,
    );
    expect(() => parseCommandLine(command('apps'), ['--zzzzzz'])).toThrow(/it takes --format, --help$/);
    // Text that looks like options: named as typed, and how to pass it.
    expect(() => parseCommandLine(command('type'), ['-neg', '--into', 'p'])).toThrow(
      'type has no option -neg: did you mean --yes? (text that starts with "-" goes last, after --: macpilot type [options] -- -neg)',
    );
    expect(parseCommandLine(command('type'), ['--into', 'p', '--', '-neg']).positionals).toEqual(['-neg']);
  });

  it('never takes the next option for a missing value', () => {
    expect(() => parseCommandLine(command('setup'), ['cursor', '--project', '--dry-run'])).toThrow(
      '--project needs a value',
    );
    expect(() => parseCommandLine(command('find'), ['File', '--app', '--role', 'menu'])).toThrow(
      '--app needs a value',
    );
    expect(parseCommandLine(command('find'), ['File', '--app=-x']).values.app).toBe('-x');
    // "-" alone is a value: stdout for screenshot -o.
    expect(parseCommandLine(command('screenshot'), ['-o', '-']).values.output).toBe('-');
  });

  it('says which option is missing its value, and which takes none', () => {
    expect(() => parseCommandLine(command('tree'), ['--depth'])).toThrow('--depth needs a value: --depth N');
    expect(() => parseCommandLine(command('tree'), ['--all=yes'])).toThrow('--all takes no value');
  });
});
