/** Deterministic PRNG (mulberry32) so the seed is identical on every start. */
export interface Prng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  hex(length: number): string;
}

export function createPrng(seed: number): Prng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
    hex: (length: number) => {
      let s = '';
      while (s.length < length)
        s += Math.floor(next() * 0x100000000)
          .toString(16)
          .padStart(8, '0');
      return s.slice(0, length);
    },
  };
}

/** A stable id24 derived from a label, for seed entities that tests refer to by name. */
export function stableId(label: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  let h3 = 0x12345678;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
    h3 = Math.imul(h3 ^ c, 0x27d4eb2d) >>> 0;
  }
  return [h1, h2, h3].map((h) => h.toString(16).padStart(8, '0')).join('');
}

/** A PRNG seed derived from a label. */
export function seedOf(label: string): number {
  return parseInt(stableId(label).slice(0, 8), 16);
}

/** Fixed clock of the seed: seed timestamps never depend on when the hub starts. */
export const SEED_EPOCH = Date.parse('2026-11-01T12:00:00.000Z');
export function seedTime(offsetMs: number): string {
  return new Date(SEED_EPOCH - offsetMs).toISOString();
}
