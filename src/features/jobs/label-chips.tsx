/** A job's labels (each filters the list when clicked, if `onLabel` is given) and its plain tags. */
export function LabelChips({
  labels,
  tags = [],
  onLabel,
}: {
  labels: [string, string][];
  tags?: string[];
  onLabel?(label: string): void;
}) {
  if (!labels.length && !tags.length) return <span className="text-muted">—</span>;
  const chip = 'inline-flex rounded bg-subtle px-1.5 py-0.5 font-mono text-xs text-foreground';
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Labels and tags">
      {labels.map(([k, v]) => {
        const text = `${k}=${v}`;
        return (
          <li key={text}>
            {onLabel ? (
              <button
                type="button"
                className={`${chip} hover:bg-accent-soft focus-visible:outline-2 focus-visible:outline-amber-600`}
                title={`Show only jobs labelled ${text}`}
                onClick={() => onLabel(text)}
              >
                {text}
              </button>
            ) : (
              <span className={chip}>{text}</span>
            )}
          </li>
        );
      })}
      {tags.map((t) => (
        <li key={`tag:${t}`}>
          <span className={`${chip} italic`} title="Tag">
            {t}
          </span>
        </li>
      ))}
    </ul>
  );
}
