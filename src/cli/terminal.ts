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

/**
 * The person running the command: they answer y or n at the terminal, or allowed the action in advance
 * with --yes. Without a terminal to ask at, an action that needs consent is refused, saying so.
 */
export function terminalHuman(options: { yes: boolean; spinner: Spinner }): Human {
  return {
    // --yes answers a consent in advance, never a choice: that needs the terminal (stdin at its end, or piped
    // into the command, would leave the question unanswered for good, or answered by the pipe's data).
    unreachable: (ask = 'confirm') =>
      (ask === 'confirm' && options.yes) || (process.stdin.isTTY && process.stderr.isTTY)
        ? undefined
        : `macpilot cannot ask at a terminal here (stdin or stderr is not one)${ask === 'confirm' ? '; the command line can allow it with --yes' : ''}`,
    confirm: async ({ action, detail }, signal) => {
      if (options.yes) return 'accept';
      options.spinner.stop();
      const terminal = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const question = `${detail === undefined ? '' : `${detail}\n`}Allow: ${action}? [y/N] `;
        const answer = await terminal.question(question, { signal });
        return /^y(es)?$/i.test(answer.trim()) ? 'accept' : 'decline';
      } catch {
        return 'cancel';
      } finally {
        terminal.close();
      }
    },
    choose: async ({ question, options: choices }, signal) => {
      options.spinner.stop();
      const terminal = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const list = choices.map((choice, i) => `  ${i + 1}. ${choice.label}`).join('\n');
        const answer = await terminal.question(`${question}\n${list}\nNumber (empty: none): `, { signal });
        const picked = choices[Number(answer.trim()) - 1];
        return picked && /^\d+$/.test(answer.trim())
          ? { action: 'accept', value: picked.value }
          : { action: 'decline' };
      } catch {
        return { action: 'cancel' };
      } finally {
        terminal.close();
      }
    },
  };
}
