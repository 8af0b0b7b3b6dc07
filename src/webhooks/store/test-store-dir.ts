import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Temporary store folders for tests; `cleanup` removes every one made so far. */
export function storeDirs() {
  const made: string[] = [];
  return {
    make(): string {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-store-'));
      made.push(d);
      return d;
    },
    cleanup(): void {
      for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}
