import type { Paper } from '../../hub/schemas/index.ts';
import { seedTime, stableId } from './prng.ts';
import { findUser } from './users.ts';

function author(paper: string, name: string, claimedBy?: string) {
  const u = claimedBy ? findUser(claimedBy) : undefined;
  return {
    _id: stableId(`paper-author:${paper}:${name}`),
    name,
    hidden: false,
    ...(u ? { user: { _id: u.id, user: u.name, fullname: u.fullname, avatarUrl: u.avatarUrl } } : {}),
  };
}

/** Author entries named like the demo users are unclaimed unless a `claimedBy` is given. */
export function seedPapers(): Paper[] {
  const paper = (id: string, title: string, authors: [string, string?][], ageDays: number): Paper => ({
    id,
    _id: stableId(`paper:${id}`),
    title,
    summary: `${title}. A seeded abstract for the mock hub.`,
    publishedAt: seedTime(ageDays * 86_400_000),
    authors: authors.map(([name, claimedBy]) => author(id, name, claimedBy)),
  });
  return [
    paper(
      '2501.00001',
      'Identity-Preserving Video Generation',
      [['Alice Liddell'], ['Bob Builder'], ['Dave Null']],
      40,
    ),
    paper('2501.00002', 'Scaling Laws for Tiny Models', [['Alice Liddell', 'alice'], ['Erin Hope']], 30),
    paper(
      '2501.00003',
      'Robust Evaluation of Chat Models',
      [['Carol Danvers'], ['Frank Ocean'], ['Bob Builder', 'bob']],
      20,
    ),
    paper('2501.00004', 'Sparse Mixtures for Retrieval', [['Grace Hopper'], ['Heidi Klum']], 10),
    paper('2501.00005', 'Audio Tokenizers Revisited', [['Carol Danvers'], ['Alice Liddell']], 5),
  ];
}
