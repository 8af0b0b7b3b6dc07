import { REPO_TYPES, type RepoType, type RepositoryUsage } from '../../hub/schemas/index.ts';

export interface UsageSummary {
  count: number;
  totalBytes: number;
  byType: { type: RepoType; bytes: number; count: number }[];
  top: RepositoryUsage[];
}

/** Totals over the listed repositories, per type, and the largest few. */
export function summarize(rows: RepositoryUsage[], topN = 5): UsageSummary {
  const byType = new Map<RepoType, { bytes: number; count: number }>(REPO_TYPES.map((t) => [t, { bytes: 0, count: 0 }]));
  let totalBytes = 0;
  for (const r of rows) {
    totalBytes += r.storage;
    const t = byType.get(r.type)!;
    t.bytes += r.storage;
    t.count += 1;
  }
  const top = [...rows].sort((a, b) => b.storage - a.storage).slice(0, topN);
  return { count: rows.length, totalBytes, byType: REPO_TYPES.map((type) => ({ type, ...byType.get(type)! })), top };
}
