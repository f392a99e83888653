/** The spinner shows on a terminal, after a moment, and never on a stream that is not one. */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Spinner, terminalHuman } from '../../../src/cli/terminal.js';

function stream(isTTY: boolean) {
  const written: string[] = [];
  const fake = { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
  return { fake, written };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Spinner', () => {
  it('on a terminal: nothing for quick work, then frames with the label, and a cleared line when done', () => {
    vi.useFakeTimers();
    const { fake, written } = stream(true);
    const spinner = new Spinner(fake);
    spinner.start('Snapshot the UI tree');
    vi.advanceTimersByTime(150);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(300);
    expect(written.length).toBeGreaterThan(1);
    expect(written[0]).toMatch(/^\r\S Snapshot the UI tree…/);
    spinner.stop();
    expect(written.at(-1)).toBe('\r\x1b[K');
    const count = written.length;
    vi.advanceTimersByTime(1000);
    expect(written).toHaveLength(count);
  });

  it('writes nothing at all to a stream that is not a terminal', () => {
    vi.useFakeTimers();
    const { fake, written } = stream(false);
    const spinner = new Spinner(fake);
    spinner.start('Wait for a UI condition');
    vi.advanceTimersByTime(5000);
    spinner.stop();
    expect(written).toEqual([]);
  });
});

describe('terminalHuman', () => {
  it('without a terminal, --yes allows a consent but cannot answer a choice (asked, it would wait for good)', () => {
    expect(process.stdin.isTTY).toBeFalsy(); // vitest's workers have no terminal
    const human = terminalHuman({ yes: true, spinner: new Spinner() });
    expect(human.unreachable('confirm')).toBeUndefined();
    expect(human.unreachable()).toBeUndefined();
    expect(human.unreachable('choose')).toMatch(
      /cannot ask at a terminal here \(stdin or stderr is not one\)$/,
    );
    expect(terminalHuman({ yes: false, spinner: new Spinner() }).unreachable()).toMatch(
      /allow it with --yes/,
    );
  });
});

const NEVER = new AbortController().signal;

describe('asking the person', () => {
  /** A keyboard that types `lines` one at a time, each once the previous question is out. */
  function keyboard(lines: string[]) {
    const input = new PassThrough();
    const output = new PassThrough();
    const asked: string[] = [];
    output.on('data', (chunk: Buffer) => {
      asked.push(chunk.toString());
      const line = lines.shift();
      if (line === undefined) input.end();
      else input.write(`${line}\n`);
    });
    return { keyboard: { input, output }, asked };
  }
  const human = (lines: string[]) => {
    const k = keyboard(lines);
    return { human: terminalHuman({ yes: false, spinner: new Spinner(), keyboard: k.keyboard }), ...k };
  };

  it('asks again when the answer is neither yes nor no; an empty answer is no', async () => {
    const maybe = human(['maybe', 'y']);
    expect(await maybe.human.confirm({ action: 'press Delete', tool: 'press_key' }, NEVER)).toBe('accept');
    expect(maybe.asked.join('')).toContain('Answer y (yes) or n (no; an empty answer is no too).');
    expect((maybe.asked.join('').match(/Allow: press Delete\?/g) ?? []).length).toBe(2);
    expect(await human(['']).human.confirm({ action: 'quit', tool: 'quit_app' }, NEVER)).toBe('decline');
    expect(await human(['No']).human.confirm({ action: 'quit', tool: 'quit_app' }, NEVER)).toBe('decline');
    // The person typed the command: the path is shown as they wrote it, not with its names as lengths.
    const asGiven = human(['n']);
    const ask = {
      action: 'set a value (app("zenity")/dialog/textbox[(4 characters)])',
      asGiven: 'set a value (app("zenity")/dialog/textbox["Name"])',
      because: 'safe mode (set by the environment variable MACPILOT_MODE) asks before it',
      tool: 'set_value',
    };
    expect(await asGiven.human.confirm(ask, NEVER)).toBe('decline');
    expect(asGiven.asked.join('')).toContain(
      'macpilot asks because safe mode (set by the environment variable MACPILOT_MODE) asks before it.\nAllow: set a value (app("zenity")/dialog/textbox["Name"])? [y/N]',
    );
  });

  it('asks again for a number off the list; the input ending is a cancel, not a no', async () => {
    const options = [
      { label: 'zenity (pid 1)', value: '1' },
      { label: 'zenity (pid 2)', value: '2' },
    ];
    const picked = human(['3', 'two', '2']);
    expect(await picked.human.choose({ question: 'Which app?', title: 'Choose', options }, NEVER)).toEqual({
      action: 'accept',
      value: '2',
    });
    expect(
      (picked.asked.join('').match(/Give a number from 1 to 2, or nothing for none\./g) ?? []).length,
    ).toBe(2);
    expect(
      await human(['']).human.choose({ question: 'Which app?', title: 'Choose', options }, NEVER),
    ).toEqual({
      action: 'decline',
    });
    expect(await human([]).human.confirm({ action: 'quit', tool: 'quit_app' }, NEVER)).toBe('cancel');
  });
});
