import { createHash, randomBytes } from 'node:crypto';

/** A fresh `<id24>`. */
export function newId24(): string {
  return randomBytes(12).toString('hex');
}

/** A stable `<id24>` for something the store has no id for (derived from a name). */
export function stableId24(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 24);
}

export function newSha(): string {
  return randomBytes(20).toString('hex');
}
