import { loadState, saveState } from './persistence.ts';
import type { HubState } from './state-schema.ts';

export interface Store {
  readonly state: HubState;
  now(): Date;
  /**
   * Runs a mutation atomically: on a throw the state is rolled back, on success it is saved
   * (durably, when there is a data dir) before the function returns.
   */
  transaction<T>(fn: (state: HubState) => T): T;
  /** Bumped on every committed transaction (cache keys). */
  readonly version: number;
}

export function createStore(opts: { dataDir?: string; now: () => Date; seed: () => HubState }): Store {
  let state: HubState = (opts.dataDir ? loadState(opts.dataDir) : undefined) ?? opts.seed();
  let version = 0;
  if (opts.dataDir) saveState(opts.dataDir, state);
  let depth = 0;
  return {
    get state() {
      return state;
    },
    get version() {
      return version;
    },
    now: opts.now,
    transaction<T>(fn: (s: HubState) => T): T {
      if (depth > 0) return fn(state);
      const backup = structuredClone(state);
      depth++;
      try {
        const result = fn(state);
        if (opts.dataDir) saveState(opts.dataDir, state);
        version++;
        return result;
      } catch (err) {
        state = backup;
        throw err;
      } finally {
        depth--;
      }
    },
  };
}
