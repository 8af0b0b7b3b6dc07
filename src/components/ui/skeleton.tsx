/** Placeholder rows while a query loads. */
export function Skeleton({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-2" data-testid="skeleton">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-10 animate-pulse rounded-md bg-subtle-strong" />
      ))}
      <span className="sr-only">{label}…</span>
    </div>
  );
}
