import { OUTCOME_FILTERS, type OutcomeFilter } from './delivery-outcome.ts';

const LABELS: Record<OutcomeFilter, string> = { all: 'All', failed: 'Failed', succeeded: 'Succeeded' };

/** All / failed / succeeded, as a radio group (one choice, arrow keys move). */
export function OutcomeFilterControl({
  value,
  counts,
  onChange,
}: {
  value: OutcomeFilter;
  counts: Record<OutcomeFilter, number>;
  onChange(v: OutcomeFilter): void;
}) {
  return (
    <fieldset className="inline-flex overflow-hidden rounded-md border border-border-strong text-sm">
      <legend className="sr-only">Show deliveries</legend>
      {OUTCOME_FILTERS.map((f) => (
        <label
          key={f}
          className={`cursor-pointer px-3 py-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-amber-600 ${value === f ? 'bg-accent-soft font-medium text-accent-strong' : 'bg-surface text-foreground'}`}
        >
          <input
            type="radio"
            name="delivery-outcome"
            value={f}
            checked={value === f}
            onChange={() => onChange(f)}
            className="sr-only"
          />
          {LABELS[f]} <span className="text-xs tabular-nums">({counts[f]})</span>
        </label>
      ))}
    </fieldset>
  );
}
