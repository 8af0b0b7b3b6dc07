import { Field, inputClass } from '../../components/ui/field.tsx';

export function PrepaidAmountField({
  value,
  error,
  onChange,
}: {
  value: string;
  error?: string;
  onChange(v: string): void;
}) {
  return (
    <div className="ml-4 border-l-2 border-amber-400 pl-4 pb-2">
      <Field
        label="Prepaid amount"
        error={error}
        hint="Required while prepaid credits are on. At most 24 characters, e.g. 100 USD."
      >
        {(p) => (
          <input
            {...p}
            name="prepaidAmount"
            className={`${inputClass} max-w-xs`}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            autoComplete="off"
          />
        )}
      </Field>
    </div>
  );
}
