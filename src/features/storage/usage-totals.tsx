import { formatBytes } from '../../components/ui/format.ts';
import type { UsageSummary } from './usage-summary.ts';

export function UsageTotals({ summary }: { summary: UsageSummary }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-7" data-testid="storage-totals">
      <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
        <dt className="text-xs text-slate-600 dark:text-slate-400">Total</dt>
        <dd className="text-lg font-semibold" data-testid="total-bytes">{formatBytes(summary.totalBytes)}</dd>
      </div>
      <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
        <dt className="text-xs text-slate-600 dark:text-slate-400">Repositories</dt>
        <dd className="text-lg font-semibold" data-testid="total-count">{summary.count}</dd>
      </div>
      {summary.byType.map((t) => (
        <div key={t.type} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
          <dt className="text-xs capitalize text-slate-600 dark:text-slate-400">{t.type}s</dt>
          <dd className="text-sm font-medium">
            {formatBytes(t.bytes)} <span className="text-xs text-slate-600 dark:text-slate-400">· {t.count}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
