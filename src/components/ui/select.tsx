import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn.ts';
import { Field, inputClass } from './field.tsx';

export interface SelectOption<T extends string = string> {
  value: T;
  label: ReactNode;
}

export type SelectProps<T extends string> = Omit<ComponentProps<'select'>, 'children'> & {
  options: readonly SelectOption<T>[];
  /** The chosen option's value, typed as the options' values. */
  onValueChange?(value: T): void;
};

/** A native select over a list of options; controlled (`value`) or not (`defaultValue`). */
export function Select<T extends string>({ options, onValueChange, onChange, className, ...rest }: SelectProps<T>) {
  return (
    <select
      {...rest}
      // a native select draws 2 px shorter than an input of the same padding; the bars set them side by side
      className={cn(inputClass, 'h-[2.125rem]', className)}
      onChange={(e) => {
        onChange?.(e);
        onValueChange?.(e.target.value as T);
      }}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** A labelled Select, as the filter bars and forms show it. */
export function SelectField<T extends string>({ label, ...select }: SelectProps<T> & { label: string }) {
  return <Field label={label}>{(p) => <Select {...p} {...select} />}</Field>;
}

/** Options whose label is their value (enums such as REPO_TYPES). */
export function optionsOf<T extends string>(values: readonly T[]): SelectOption<T>[] {
  return values.map((value) => ({ value, label: value }));
}
