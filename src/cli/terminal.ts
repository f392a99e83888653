/**
 * The terminal a command runs in: a spinner on stderr while slow work runs (only when stderr is a terminal;
 * never in pipes, logs or tests), and the human at the keyboard, asked before an action that needs consent.
 */
import { createInterface } from 'node:readline/promises';
import type { Human } from '../policy/pipeline.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Work quicker than this shows no spinner at all. */
const SHOW_AFTER_MS = 200;
const FRAME_MS = 80;

export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private shown = false;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  start(label: string): void {
    if (!this.stream.isTTY) return;
    this.stop();
    let frame = 0;
    const draw = () => {
      this.shown = true;
      this.stream.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label}…\x1b[K`);
    };
    this.timer = setTimeout(() => {
      draw();
      this.timer = setInterval(draw, FRAME_MS);
      this.timer.unref();
    }, SHOW_AFTER_MS);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}

/** Where the person is asked: the terminal, or streams a test writes the answers into. */
export interface Keyboard {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

const TERMINAL_KEYBOARD: Keyboard = { input: process.stdin, output: process.stderr };

/**
 * Asks until an answer means something: `interpret` gives its meaning, or undefined for an answer that means
 * none ("maybe", a number off the list), which is asked again with `again` first. Interrupted (Ctrl-C, the
 * input's end, the call cancelled): undefined.
 */
async function askUntilMeant<T>(
  keyboard: Keyboard,
  question: string,
  again: string,
  interpret: (answer: string) => T | undefined,
  signal?: AbortSignal,
): Promise<T | undefined> {
  const terminal = createInterface({ input: keyboard.input, output: keyboard.output });
  const ended = new Promise<undefined>((resolve) => terminal.once('close', () => resolve(undefined)));
  // At a terminal in raw mode, Ctrl-C reaches readline rather than the process: it interrupts the command as a
  // Ctrl-C anywhere else does (exit 130), not as a declined question.
  terminal.once('SIGINT', () => {
    process.emit('SIGINT');
    terminal.close();
  });
  try {
    for (let asked = question; ; asked = `${again}\n${question}`) {
      const answer = await Promise.race([terminal.question(asked, { signal }), ended]);
      if (answer === undefined) return undefined;
      const meant = interpret(answer.trim());
      if (meant !== undefined) return meant;
    }
  } catch {
    return undefined;
  } finally {
    terminal.close();
  }
}

/**
 * The person running the command: they answer y or n at the terminal, or allowed the action in advance
 * with --yes. Without a terminal to ask at, an action that needs consent is refused, saying so.
 */
export function terminalHuman(options: { yes: boolean; spinner: Spinner; keyboard?: Keyboard }): Human {
  const keyboard = options.keyboard ?? TERMINAL_KEYBOARD;
  return {
    // --yes answers a consent in advance, never a choice: that needs the terminal (stdin at its end, or piped
    // into the command, would leave the question unanswered for good, or answered by the pipe's data).
    unreachable: (ask = 'confirm') =>
      (ask === 'confirm' && options.yes) || (process.stdin.isTTY && process.stderr.isTTY)
        ? undefined
        : `macpilot cannot ask at a terminal here (stdin or stderr is not one)${ask === 'confirm' ? '; the command line can allow it with --yes' : ''}`,
    // The person typed the command: they are asked about what it acts on as it is, and told why they are asked.
    confirm: async ({ action, asGiven, because, detail }, signal) => {
      if (options.yes) return 'accept';
      options.spinner.stop();
      const why = because === undefined ? '' : `macpilot asks because ${because}.\n`;
      const question = `${why}${detail === undefined ? '' : `${detail}\n`}Allow: ${asGiven ?? action}? [y/N] `;
      const answer = await askUntilMeant(
        keyboard,
        question,
        'Answer y (yes) or n (no; an empty answer is no too).',
        (text) => (/^y(es)?$/i.test(text) ? 'accept' : /^(no?)?$/i.test(text) ? 'decline' : undefined),
        signal,
      );
      return answer ?? 'cancel';
    },
    choose: async ({ question, options: choices }, signal) => {
      options.spinner.stop();
      const list = choices.map((choice, i) => `  ${i + 1}. ${choice.label}`).join('\n');
      const picked = await askUntilMeant(
        keyboard,
        `${question}\n${list}\nNumber (empty: none): `,
        `Give a number from 1 to ${choices.length}, or nothing for none.`,
        (text) => {
          if (text === '') return { action: 'decline' as const };
          const choice = /^\d+$/.test(text) ? choices[Number(text) - 1] : undefined;
          return choice ? { action: 'accept' as const, value: choice.value } : undefined;
        },
        signal,
      );
      return picked ?? { action: 'cancel' };
    },
  };
}
