import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/field.tsx';
import { FieldGroup } from './field-group.tsx';
import type { KeyValue } from './form-model.ts';

/** Rows of key/value pairs (environment, secrets, labels). */
export function KeyValueEditor(props: {
  legend: string;
  rows: KeyValue[];
  onChange(rows: KeyValue[]): void;
  error?: string | undefined;
  hint?: string;
  secretValues?: boolean;
  valuePlaceholder?: string;
}) {
  const { rows, onChange } = props;
  const set = (i: number, patch: Partial<KeyValue>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const item = props.legend.toLowerCase();
  return (
    <FieldGroup legend={props.legend} error={props.error} {...(props.hint ? { hint: props.hint } : {})}>
      {({ errorId, invalid }) => (
        <>
          {rows.map((r, i) => (
            <div key={i} className="flex gap-2">
              <input
                className={inputClass}
                aria-label={`${props.legend} name ${i + 1}`}
                aria-invalid={invalid && i === 0}
                aria-describedby={errorId}
                value={r.key}
                placeholder="NAME"
                spellCheck={false}
                onChange={(e) => set(i, { key: e.target.value })}
              />
              <input
                className={inputClass}
                aria-label={`${props.legend} value ${i + 1}`}
                aria-describedby={errorId}
                type={props.secretValues ? 'password' : 'text'}
                autoComplete="off"
                value={r.value}
                placeholder={props.valuePlaceholder ?? 'value'}
                spellCheck={false}
                onChange={(e) => set(i, { value: e.target.value })}
              />
              <Button
                variant="ghost"
                aria-label={`Remove ${item} ${i + 1}`}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                ✕
              </Button>
            </div>
          ))}
          <Button onClick={() => onChange([...rows, { key: '', value: '' }])}>Add {item.replace(/s$/, '')}</Button>
        </>
      )}
    </FieldGroup>
  );
}
