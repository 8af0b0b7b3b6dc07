import { formatBytes } from '../../components/ui/format.ts';
import type { UsageSummary } from './usage-summary.ts';

const TYPE_COLORS: Record<string, string> = {
  model: 'fill-amber-500',
  dataset: 'fill-sky-600',
  space: 'fill-violet-600',
  bucket: 'fill-emerald-600',
  kernel: 'fill-rose-600',
};

interface Bar {
  label: string;
  value: number;
  className: string;
}

/** Horizontal bars in plain SVG; the numbers are also in the text so nothing depends on seeing it. */
function BarChart({ id, title, desc, bars }: { id: string; title: string; desc: string; bars: Bar[] }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 28;
  const labelW = 170;
  const barW = 260;
  const height = bars.length * row + 8;
  return (
    <figure className="min-w-0">
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${labelW + barW + 90} ${height}`}
        className="w-full max-w-xl"
        data-testid={id}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{desc}</desc>
        {bars.map((b, i) => {
          const y = i * row + 4;
          const w = Math.max(b.value > 0 ? 2 : 0, (b.value / max) * barW);
          return (
            <g key={b.label}>
              <text x={labelW - 8} y={y + 15} textAnchor="end" className="fill-soft text-[11px]">
                {b.label.length > 26 ? `${b.label.slice(0, 25)}…` : b.label}
              </text>
              <rect x={labelW} y={y + 3} width={w} height={row - 10} rx={3} className={b.className} />
              <text x={labelW + w + 6} y={y + 15} className="fill-soft text-[11px]">
                {formatBytes(b.value)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 text-xs text-muted">{title}</figcaption>
    </figure>
  );
}

export function StorageCharts({ summary }: { summary: UsageSummary }) {
  const typeBars = summary.byType.map((t) => ({
    label: `${t.type} (${t.count})`,
    value: t.bytes,
    className: TYPE_COLORS[t.type] ?? 'fill-slate-500',
  }));
  const topBars = summary.top.map((r) => ({
    label: r.id,
    value: r.storage,
    className: TYPE_COLORS[r.type] ?? 'fill-slate-500',
  }));
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <BarChart
        id="chart-by-type"
        title="Storage by repository type"
        desc={summary.byType.map((t) => `${t.type}: ${formatBytes(t.bytes)} in ${t.count} repositories`).join('; ')}
        bars={typeBars}
      />
      <BarChart
        id="chart-top"
        title={`Largest ${summary.top.length} repositories`}
        desc={summary.top.map((r) => `${r.id} (${r.type}): ${formatBytes(r.storage)}`).join('; ') || 'No repositories'}
        bars={topBars}
      />
    </div>
  );
}
