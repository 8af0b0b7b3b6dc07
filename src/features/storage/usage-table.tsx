import { formatBytes, formatDateTime, formatRelative } from '../../components/ui/format.ts';
import type { RepositoryUsage } from '../../hub/schemas/index.ts';
import { repoWebUrl } from '../../hub/web-urls.ts';
import type { Direction, SortKey, StorageParams } from './use-storage-params.ts';
import { ExternalTextLink } from '../../components/ui/text-link.tsx';

function SortHeader({
  label,
  sortKey,
  params,
  onChange,
}: {
  label: string;
  sortKey: SortKey;
  params: StorageParams;
  onChange(p: Partial<StorageParams>): void;
}) {
  const active = params.sort === sortKey;
  const next: Direction = active && params.direction === 'desc' ? 'asc' : 'desc';
  return (
    <th
      scope="col"
      className="px-3 py-2"
      aria-sort={active ? (params.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button
        type="button"
        className="inline-flex items-center gap-1 uppercase tracking-wide hover:text-foreground"
        onClick={() => onChange({ sort: sortKey, direction: next })}
      >
        {label}
        <span aria-hidden="true">{active ? (params.direction === 'asc' ? '▲' : '▼') : '↕'}</span>
      </button>
    </th>
  );
}

/** The hub sorts (sort/direction are query parameters); headers only change the URL. */
export function UsageTable({
  rows,
  params,
  hubUrl,
  onChange,
}: {
  rows: RepositoryUsage[];
  params: StorageParams;
  hubUrl: string;
  onChange(p: Partial<StorageParams>): void;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Repository storage</caption>
        <thead className="bg-surface-muted text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 uppercase tracking-wide">
              Repository
            </th>
            <th scope="col" className="px-3 py-2 uppercase tracking-wide">
              Type
            </th>
            <th scope="col" className="px-3 py-2 uppercase tracking-wide">
              Visibility
            </th>
            <SortHeader label="Storage" sortKey="storage" params={params} onChange={onChange} />
            <th scope="col" className="px-3 py-2 uppercase tracking-wide">
              Share
            </th>
            <SortHeader label="Updated" sortKey="updatedAt" params={params} onChange={onChange} />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.type}:${r.id}`} className="border-t border-border" data-testid="usage-row">
              <td className="px-3 py-2 font-medium">
                <ExternalTextLink href={repoWebUrl(hubUrl, { type: r.type, name: r.id })} underline="hover">
                  {r.id}
                </ExternalTextLink>
              </td>
              <td className="px-3 py-2">{r.type}</td>
              <td className="px-3 py-2">{r.visibility}</td>
              <td className="whitespace-nowrap px-3 py-2 tabular-nums" data-bytes={r.storage}>
                {formatBytes(r.storage)}
              </td>
              <td className="px-3 py-2 tabular-nums">{r.storagePercent.toFixed(1)}%</td>
              <td className="whitespace-nowrap px-3 py-2">
                <time dateTime={r.updatedAt} title={formatDateTime(r.updatedAt)}>
                  {formatRelative(r.updatedAt)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
