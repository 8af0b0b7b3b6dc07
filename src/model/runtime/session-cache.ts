// Sessions kept per input-shape signature, the oldest released past a limit: a session holds its
// device's memory, so a page that changes shapes keeps only the few it uses.
import { memoizePromise } from '../io/memoize-promise.ts';
import type { BackendSession } from './types.ts';

export class SessionCache<T extends { session: BackendSession }> {
  private readonly entries = new Map<string, Promise<T>>();

  /** `limit`: read at each `get`, so a model may change it */
  constructor(private readonly limit: () => number) {}

  /** the entry of `key`, made by `create` on first use (a failed one is made again); the oldest past the limit is released */
  get(key: string, create: () => Promise<T>): Promise<T> {
    const entry = memoizePromise(this.entries, key, create);
    while (this.entries.size > this.limit()) {
      const [oldKey, old] = this.entries.entries().next().value as [string, Promise<T>];
      this.entries.delete(oldKey);
      void old.then((o) => o.session.release()).catch(() => undefined);
    }
    return entry;
  }

  /** releases every session */
  async release(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map(async (s) => (await s.catch(() => null))?.session.release()));
  }
}
