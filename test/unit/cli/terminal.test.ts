/** The spinner shows on a terminal, after a moment, and never on a stream that is not one. */
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
