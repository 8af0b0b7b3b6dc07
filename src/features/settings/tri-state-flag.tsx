import { useId } from 'react';
import { SettingLabel } from '../../components/ui/setting-label.tsx';

const CHOICES = [
  { value: undefined, label: 'Leave unchanged' },
  { value: true, label: 'On' },
  { value: false, label: 'Off' },
] as const;

/**
 * A flag whose current value the hub does not expose: leave it unchanged (nothing is sent), or
 * set it on or off. Native radios, so arrow keys move between the three.
 */
export function TriStateFlag({
  name,
  label,
  description,
  value,
  onChange,
}: {
  name: string;
  label: string;
  description?: string;
  value: boolean | undefined;
  onChange(v: boolean | undefined): void;
}) {
  const id = useId();
  return (
    <div
      role="radiogroup"
      aria-labelledby={id}
      className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2"
      data-testid={`tri-state-${name}`}
    >
      <SettingLabel id={id} label={label} description={description} />
      <span className="flex shrink-0 gap-3 text-sm">
        {CHOICES.map((c) => (
          <label key={c.label} className="flex items-center gap-1">
            <input type="radio" name={`flag-${name}`} checked={value === c.value} onChange={() => onChange(c.value)} />
            {c.label}
          </label>
        ))}
      </span>
    </div>
  );
}
