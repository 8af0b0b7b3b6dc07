import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/field.tsx';
import { WATCHED_TYPES } from '../../hub/schemas/index.ts';
import { FieldGroup } from './field-group.tsx';
import type { WebhookDraft } from './form-model.ts';

type Watched = WebhookDraft['watched'];

/** Repos, users and orgs the webhook watches (a user or org covers all its repos). */
export function WatchedEditor({
  rows,
  onChange,
  error,
}: {
  rows: Watched;
  onChange(rows: Watched): void;
  error?: string | undefined;
}) {
  const set = (i: number, patch: Partial<Watched[number]>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <FieldGroup legend="Watched items" error={error} hint="A user or organization covers all of its repositories.">
      {({ errorId, invalid }) => (
        <>
          {rows.map((r, i) => (
            <div key={i} className="flex gap-2">
              <div className="w-36 shrink-0">
                <select
                  className={inputClass}
                  aria-label={`Watched type ${i + 1}`}
                  value={r.type}
                  onChange={(e) => set(i, { type: e.target.value as Watched[number]['type'] })}
                >
                  {WATCHED_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </div>
              <input
                className={inputClass}
                aria-label={`Watched name ${i + 1}`}
                aria-invalid={invalid && (r.name.trim() === '' || i === 0)}
                aria-describedby={errorId}
                value={r.name}
                placeholder={r.type === 'user' || r.type === 'org' ? 'name' : 'namespace/name'}
                spellCheck={false}
                onChange={(e) => set(i, { name: e.target.value })}
              />
              <Button
                variant="ghost"
                aria-label={`Remove watched item ${i + 1}`}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                ✕
              </Button>
            </div>
          ))}
          <Button onClick={() => onChange([...rows, { type: 'model', name: '' }])}>Add watched item</Button>
        </>
      )}
    </FieldGroup>
  );
}
