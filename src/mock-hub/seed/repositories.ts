import { REPO_TYPES, type RepoType } from '../../hub/schemas/index.ts';
import type { StoredRepo } from '../store/state-schema.ts';
import { createPrng, seedOf, seedTime } from './prng.ts';

const WORDS = [
  'llama',
  'vision',
  'tiny',
  'bert',
  'whisper',
  'diffusion',
  'chat',
  'coder',
  'audio',
  'consisid',
  'retrieval',
  'eval',
  'sft',
  'mix',
];

/** Repositories other seed entities (watch list, webhooks) refer to by name. */
export const NAMED_REPOS: Record<string, Record<number, string>> = {
  acme: { 1: 'llama-vision-model' },
  alice: { 0: 'eval-mix-dataset' },
};

/** Repositories per owner; every owner with >= 5 gets all five repo types. */
export const REPO_COUNTS: Record<string, number> = { alice: 45, bob: 8, carol: 5, acme: 30, teamco: 10, freeorg: 4 };

export function seedRepositories(): StoredRepo[] {
  const repos: StoredRepo[] = [];
  for (const [owner, count] of Object.entries(REPO_COUNTS)) {
    const prng = createPrng(seedOf(`repos:${owner}`));
    const used = new Set<string>();
    for (let i = 0; i < count; i++) {
      const type: RepoType = REPO_TYPES[i % REPO_TYPES.length]!;
      let name = `${prng.pick(WORDS)}-${prng.pick(WORDS)}-${type}`;
      name = NAMED_REPOS[owner]?.[i] ?? name;
      while (used.has(name)) name += `-${i}`;
      used.add(name);
      // Log-uniform between 1 KB and ~50 GB, in bytes.
      const storage = Math.round(10 ** (3 + prng.next() * 7.7));
      const created = prng.int(30, 900) * 86_400_000;
      repos.push({
        id: `${owner}/${name}`,
        type,
        owner,
        visibility: prng.pick(['public', 'public', 'private', 'protected'] as const),
        storage,
        createdAt: seedTime(created),
        updatedAt: seedTime(prng.int(0, created / 3_600_000) * 3_600_000),
        likes: prng.int(0, 500),
        downloads: prng.int(0, 100_000),
      });
    }
  }
  return repos;
}
