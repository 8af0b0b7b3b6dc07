// Small building blocks of the preview panels.
import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { Field, inputClass } from '../../../components/ui/field.tsx';

/** a panel of the page under its heading; `className` adds to its box (spacing between its children) */
export function Section(p: { title: string; children: ReactNode; testId?: string; className?: string }) {
  const id = useId();
  return (
    <section
      className={cn('rounded-lg border border-border bg-surface p-4', p.className)}
      aria-labelledby={id}
      data-testid={p.testId}
    >
      <h2 id={id} className="mb-3 text-base font-semibold">
        {p.title}
      </h2>
      {p.children}
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

/** a labelled input's props: its label and hint, the input's attributes, and `onChange` given the field's value */
type FieldProps<V> = { label: string; hint?: string; onChange(v: V): void } & Omit<
  ComponentProps<'input'>,
  'onChange' | 'value' | 'checked'
>;

/** a labelled number input; an emptied box gives NaN (the spec's checks name it) */
export function NumberField({ label, hint, value, onChange, ...input }: FieldProps<number> & { value: number }) {
  return (
    <Field label={label} hint={hint}>
      {(p) => (
        <input
          {...p}
          {...input}
          type="number"
          className={inputClass}
          value={Number.isFinite(value) ? value : ''}
          onChange={(e) => onChange(e.target.value === '' ? NaN : Number(e.target.value))}
        />
      )}
    </Field>
  );
}

export function CheckField({ label, hint, onChange, ...input }: FieldProps<boolean> & { checked: boolean }) {
  return (
    <Field label={label} hint={hint}>
      {(p) => (
        <input {...p} {...input} type="checkbox" className="h-4 w-4" onChange={(e) => onChange(e.target.checked)} />
      )}
    </Field>
  );
}

/** a labelled text input (no browser autocomplete: these are ids, not words) */
export function TextField({ label, hint, onChange, ...input }: FieldProps<string> & { value: string }) {
  return (
    <Field label={label} hint={hint}>
      {(p) => (
        <input {...p} {...input} className={inputClass} onChange={(e) => onChange(e.target.value)} autoComplete="off" />
      )}
    </Field>
  );
}
