// Turns run one at a time, in arrival order, while the reader goes on taking control requests.
export type TurnQueue<T> = {
  push(item: T): void;
  /** The next item, waiting for one; null once the input has ended and nothing is left. */
  next(): Promise<T | null>;
  /** No more input: `next` answers what is queued, then null. */
  end(): void;
  /** Drops what is queued (a stop signal). */
  clear(): void;
};

export function turnQueue<T>(): TurnQueue<T> {
  const items: T[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  return {
    push(item) {
      items.push(item);
      wake?.();
    },
    async next() {
      while (items.length === 0 && !ended) await new Promise<void>((r) => (wake = r));
      wake = null;
      return items.shift() ?? null;
    },
    end() {
      ended = true;
      wake?.();
    },
    clear() {
      items.length = 0;
    },
  };
}
