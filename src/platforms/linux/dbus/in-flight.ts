/**
 * At most a number of calls in flight to each app at once; the rest wait their turn. An app answers its
 * accessibility calls one at a time on its main thread: thousands sent at once (a walk of a long web list) answer
 * no sooner in all, but the last of them wait past their time limit, and the app looks hung. A call's time limit
 * starts when it is sent, not while it waits here.
 */
export class InFlight {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly most: number) {}

  async run<T>(destination: string, work: () => Promise<T>): Promise<T> {
    if ((this.running.get(destination) ?? 0) >= this.most) {
      await new Promise<void>((turn) => {
        const queue = this.waiting.get(destination) ?? [];
        queue.push(turn);
        this.waiting.set(destination, queue);
      });
    } else this.running.set(destination, (this.running.get(destination) ?? 0) + 1);
    try {
      return await work();
    } finally {
      this.next(destination);
    }
  }

  /** The next waiting call takes the slot that came free; with none waiting, the slot is given back. */
  private next(destination: string): void {
    const queue = this.waiting.get(destination);
    const turn = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(destination);
    if (turn) return turn();
    const left = (this.running.get(destination) ?? 1) - 1;
    if (left > 0) this.running.set(destination, left);
    else this.running.delete(destination);
  }
}
