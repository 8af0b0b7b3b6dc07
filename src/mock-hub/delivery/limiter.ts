/**
 * At most `max` tasks running per key; the rest wait in order. Keyed by webhook, so a slow
 * receiver holds back only its own deliveries and cannot pile up unbounded open sockets.
 */
export class KeyedLimiter {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly max: number) {}

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    if ((this.running.get(key) ?? 0) >= this.max) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(key) ?? [];
        queue.push(resolve);
        this.waiting.set(key, queue);
      });
    }
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    try {
      return await task();
    } finally {
      this.release(key);
    }
  }

  private release(key: string): void {
    const left = (this.running.get(key) ?? 1) - 1;
    if (left === 0) this.running.delete(key);
    else this.running.set(key, left);
    const queue = this.waiting.get(key);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.waiting.delete(key);
    next?.();
  }
}
