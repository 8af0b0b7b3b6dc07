import { Field, inputClass } from '../../components/ui/field.tsx';

/** datetime-local is local time; the hub stores UTC with Z. */
function toLocal(iso: string): string {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function ProductUpdatesField({
  value,
  error,
  unknown,
  onChange,
}: {
  value: string;
  error?: string;
  unknown?: boolean;
  onChange(iso: string): void;
}) {
  const hint = `Only product updates published after this moment are sent.${unknown ? ' Empty: left unchanged.' : ''}`;
  return (
    <div className="py-2">
      <Field label="Product updates after" error={error} hint={hint}>
        {(p) => (
          <input
            {...p}
            type="datetime-local"
            className={`${inputClass} max-w-xs`}
            value={toLocal(value)}
            onChange={(e) => {
              const d = new Date(e.target.value);
              if (!Number.isNaN(d.getTime())) onChange(d.toISOString());
            }}
          />
        )}
      </Field>
    </div>
  );
}
