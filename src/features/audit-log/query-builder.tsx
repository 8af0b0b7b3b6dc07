import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/field.tsx';
import { AUDIT_EVENT_TYPES, AuditQueryTerm } from '../../hub/schemas/index.ts';

type Key = AuditQueryTerm['key'];
const LABELS: Record<Key, string> = { author: 'Author', ip: 'IP address', type: 'Event type' };

/** Builds `q` from author / ip / type terms shown as removable chips; all terms must match. */
export function QueryBuilder({
  terms,
  onChange,
}: {
  terms: AuditQueryTerm[];
  onChange(terms: AuditQueryTerm[]): void;
}) {
  const [key, setKey] = useState<Key>('author');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  function add(e: FormEvent) {
    e.preventDefault();
    const v = key === 'type' ? value || AUDIT_EVENT_TYPES[0] : value.trim();
    if (/\s/.test(v)) return setError('Values cannot contain spaces.');
    const checked = AuditQueryTerm.safeParse({ key, value: v });
    if (!checked.success) return setError(`${LABELS[key]}: ${checked.error.issues[0]?.message ?? 'invalid'}`);
    setError(null);
    setValue('');
    const exists = terms.some((t) => t.key === checked.data.key && t.value === checked.data.value);
    if (!exists) onChange([...terms, checked.data]);
  }

  return (
    <div className="space-y-2">
      <form onSubmit={add} noValidate className="flex flex-wrap items-end gap-2" aria-label="Audit log filter">
        <label className="text-sm">
          <span className="block font-medium">Filter by</span>
          <select
            className={`${inputClass} w-36`}
            value={key}
            onChange={(e) => {
              setKey(e.target.value as Key);
              setValue('');
              setError(null);
            }}
          >
            {(Object.keys(LABELS) as Key[]).map((k) => (
              <option key={k} value={k}>
                {LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="min-w-48 flex-1 text-sm">
          <span className="block font-medium">Value</span>
          {key === 'type' ? (
            <select
              className={inputClass}
              value={value || AUDIT_EVENT_TYPES[0]}
              onChange={(e) => setValue(e.target.value)}
            >
              {AUDIT_EVENT_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          ) : (
            <input
              className={inputClass}
              value={value}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'audit-filter-error' : undefined}
              placeholder={key === 'author' ? 'username' : '203.0.113.7'}
              spellCheck={false}
              onChange={(e) => setValue(e.target.value)}
            />
          )}
        </label>
        <Button type="submit">Add filter</Button>
      </form>
      {error && (
        <p id="audit-filter-error" role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
      {terms.length > 0 && (
        <ul className="flex flex-wrap items-center gap-2" aria-label="Active filters">
          {terms.map((t, i) => (
            <li
              key={`${t.key}:${t.value}`}
              className="inline-flex items-center gap-1 rounded-full bg-accent-soft py-0.5 pl-3 pr-1 text-sm text-accent-strong"
              data-testid="filter-chip"
            >
              <span>
                {t.key}:<strong>{t.value}</strong>
              </span>
              <button
                type="button"
                className="rounded-full px-1.5 hover:bg-amber-200 dark:hover:bg-amber-800"
                aria-label={`Remove filter ${t.key}:${t.value}`}
                onClick={() => onChange(terms.filter((_, j) => j !== i))}
              >
                ✕
              </button>
            </li>
          ))}
          <li>
            <Button variant="ghost" onClick={() => onChange([])}>
              Clear all
            </Button>
          </li>
        </ul>
      )}
    </div>
  );
}
