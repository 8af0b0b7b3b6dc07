import { REPO_TYPES, type RepoType, type RepositoryUsage } from '../../hub/schemas/index.ts';

type Visibility = RepositoryUsage['visibility'];
interface Tally {
  bytes: number;
  count: number;
}

export interface UsageSummary extends Tally {
  byType: ({ type: RepoType } & Tally)[];
  byVisibility: Record<Visibility, Tally>;
  top: RepositoryUsage[];
}

/** Totals over the given repositories: all, per type, per visibility, and the largest few. */
export function summarize(rows: readonly RepositoryUsage[], topN = 5): UsageSummary {
  const byType = new Map<RepoType, Tally>(REPO_TYPES.map((t) => [t, { bytes: 0, count: 0 }]));
  const byVisibility: Record<Visibility, Tally> = {
    public: { bytes: 0, count: 0 },
    private: { bytes: 0, count: 0 },
    protected: { bytes: 0, count: 0 },
  };
  let bytes = 0;
  for (const r of rows) {
    bytes += r.storage;
    // A type the spec does not list gets a tally of its own; a visibility it does not list counts in the total only.
    if (!byType.has(r.type)) byType.set(r.type, { bytes: 0, count: 0 });
    const tallies = [
      byType.get(r.type)!,
      Object.hasOwn(byVisibility, r.visibility) ? byVisibility[r.visibility] : null,
    ];
    for (const t of tallies) {
      if (!t) continue;
      t.bytes += r.storage;
      t.count += 1;
    }
  }
  const top = [...rows].sort((a, b) => b.storage - a.storage).slice(0, topN);
  return {
    count: rows.length,
    bytes,
    byType: [...byType].map(([type, tally]) => ({ type, ...tally })),
    byVisibility,
    top,
  };
}
