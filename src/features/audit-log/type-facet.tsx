/** Event types with their counts; choosing one narrows the table (locally, no new export). */
export function TypeFacet({
  counts,
  total,
  selected,
  onSelect,
}: {
  counts: { type: string; count: number }[];
  total: number;
  selected: string | null;
  onSelect(type: string | null): void;
}) {
  const item = (active: boolean) =>
    `flex w-full items-center justify-between gap-2 rounded px-2 py-1 text-left text-xs ${active ? 'bg-accent-soft font-medium text-accent-strong' : 'hover:bg-subtle'}`;
  return (
    <nav
      aria-label="Event types"
      className="max-h-[60vh] overflow-auto rounded-lg border border-border p-2"
      data-testid="type-facet"
    >
      <ul className="space-y-0.5">
        <li>
          <button
            type="button"
            className={item(selected === null)}
            aria-pressed={selected === null}
            onClick={() => onSelect(null)}
          >
            <span>All types</span>
            <span className="tabular-nums">{total.toLocaleString('en')}</span>
          </button>
        </li>
        {counts.map((c) => (
          <li key={c.type}>
            <button
              type="button"
              className={item(selected === c.type)}
              aria-pressed={selected === c.type}
              onClick={() => onSelect(selected === c.type ? null : c.type)}
            >
              <span className="truncate font-mono">{c.type}</span>
              <span className="tabular-nums">{c.count.toLocaleString('en')}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
