import type { RepositoryUsage } from '../../hub/schemas/index.ts';
import { repoWebUrl } from '../../hub/web-urls.ts';
import { toCsv } from './csv.ts';

export const USAGE_CSV_HEADER = [
  'repository',
  'type',
  'visibility',
  'storage_bytes',
  'storage_percent',
  'updated_at',
  'url',
] as const;

/** The usage table as CSV: one row per repository shown, sizes in bytes, links to the hub. */
export function usageCsv(rows: readonly RepositoryUsage[], hubUrl: string): string {
  return toCsv(
    USAGE_CSV_HEADER,
    rows.map((r) => [
      r.id,
      r.type,
      r.visibility,
      r.storage,
      r.storagePercent,
      r.updatedAt,
      repoWebUrl(hubUrl, { type: r.type, name: r.id }),
    ]),
  );
}

/** `storage-<owner>-<yyyy-mm-dd>.csv`, with only filename-safe characters. */
export function usageCsvName(owner: string, now = new Date()): string {
  return `storage-${owner.replace(/[^A-Za-z0-9._-]/g, '_')}-${now.toISOString().slice(0, 10)}.csv`;
}
