import { formatBytes } from '../../components/ui/format.ts';
import type { UsageSummary } from './usage-summary.ts';

function Stat({ label, bytes, count, testId }: { label: string; bytes: number; count: number; testId: string }) {
  return (
    <div className="rounded-lg border border-border p-3" data-testid={testId} data-bytes={bytes} data-count={count}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="text-sm font-medium">
        {formatBytes(bytes)} <span className="text-xs text-muted">· {count}</span>
      </dd>
    </div>
  );
}

/** Totals over every repository of the owner, whatever the table below is filtered to. */
export function UsageTotals({ summary, owner }: { summary: UsageSummary; owner: string }) {
  const { byVisibility: v } = summary;
  return (
    <section aria-labelledby="totals-title">
      <h2 id="totals-title" className="mb-2 text-sm font-medium text-soft">
        All of {owner}’s repositories
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-8" data-testid="storage-totals">
        <div className="rounded-lg border border-border p-3">
          <dt className="text-xs text-muted">Total</dt>
          <dd className="text-lg font-semibold" data-testid="total-bytes" data-bytes={summary.bytes}>
            {formatBytes(summary.bytes)}
          </dd>
        </div>
        <div className="rounded-lg border border-border p-3">
          <dt className="text-xs text-muted">Repositories</dt>
          <dd className="text-lg font-semibold" data-testid="total-count">
            {summary.count}
          </dd>
        </div>
        <Stat label="Public" bytes={v.public.bytes} count={v.public.count} testId="visibility-public" />
        <Stat label="Private" bytes={v.private.bytes} count={v.private.count} testId="visibility-private" />
        {v.protected.count > 0 && (
          <Stat label="Protected" bytes={v.protected.bytes} count={v.protected.count} testId="visibility-protected" />
        )}
        {summary.byType.map((t) => (
          <Stat
            key={t.type}
            label={`${t.type.charAt(0).toUpperCase()}${t.type.slice(1)}s`}
            bytes={t.bytes}
            count={t.count}
            testId={`type-${t.type}`}
          />
        ))}
      </dl>
    </section>
  );
}
