// Small building blocks of the preview panels.
import { useId, type ComponentProps, type ReactNode } from 'react';
import { Field, inputClass } from '../../../components/ui/field.tsx';

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section className="rounded-lg border border-border bg-surface p-4" aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="mb-3 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** a table's column heads */
export function TableHead({ heads }: { heads: readonly string[] }) {
  return (
    <thead>
      <tr className="text-muted">
        {heads.map((h) => (
          <th key={h} scope="col" className="py-1 pr-3 font-medium">
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step,
  hint,
  disabled,
}: {
  label: string;
  value: number;
  onChange(v: number): void;
  min?: number;
  max?: number;
  step?: number;
  hint?: string;
  disabled?: boolean;
}) {
  return (
    <Field label={label} hint={hint}>
      {(p) => (
        <input
          {...p}
          type="number"
          className={inputClass}
          value={Number.isFinite(value) ? value : ''}
          min={min}
          max={max}
          step={step}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value === '' ? NaN : Number(e.target.value))}
        />
      )}
    </Field>
  );
}

export function CheckField(p: {
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <Field label={p.label} hint={p.hint}>
      {(f) => (
        <input
          {...f}
          type="checkbox"
          className="h-4 w-4"
          checked={p.checked}
          disabled={p.disabled}
          onChange={(e) => p.onChange(e.target.checked)}
        />
      )}
    </Field>
  );
}

/** a labelled text input (no browser autocomplete: these are ids, not words) */
export function TextField({
  label,
  onChange,
  ...input
}: { label: string; onChange(v: string): void } & Omit<ComponentProps<'input'>, 'onChange'>) {
  return (
    <Field label={label}>
      {(p) => (
        <input {...p} {...input} className={inputClass} onChange={(e) => onChange(e.target.value)} autoComplete="off" />
      )}
    </Field>
  );
}
