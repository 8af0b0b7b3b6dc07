import { Button } from '../../components/ui/button.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { VOLUME_TYPES } from '../../hub/schemas/index.ts';
import { FieldGroup } from './field-group.tsx';
import type { FieldErrors, VolumeDraft } from './form-model.ts';

const emptyVolume = (): VolumeDraft => ({
  type: 'bucket',
  source: '',
  mountPath: '/data',
  revision: '',
  readOnly: false,
  path: '',
});

/** Buckets or repos mounted into the job's container. */
export function VolumesEditor({
  rows,
  onChange,
  errors,
}: {
  rows: VolumeDraft[];
  onChange(rows: VolumeDraft[]): void;
  errors: FieldErrors;
}) {
  const set = (i: number, patch: Partial<VolumeDraft>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const err = (i: number, f: string) => errors[`job.volumes.${i}.${f}`];
  return (
    <FieldGroup
      legend="Volumes"
      error={errors['job.volumes']}
      hint="Repos mount read-only at a revision (default main); buckets can be written unless marked read-only."
    >
      {() => (
        <>
          {rows.map((v, i) => (
            <div key={i} className="grid grid-cols-2 gap-2 rounded-md bg-surface-muted p-2 md:grid-cols-3">
              <Field label={`Volume ${i + 1} type`} error={err(i, 'type')}>
                {(p) => (
                  <select
                    {...p}
                    className={inputClass}
                    value={v.type}
                    onChange={(e) => set(i, { type: e.target.value as VolumeDraft['type'] })}
                  >
                    {VOLUME_TYPES.map((t) => (
                      <option key={t}>{t}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Source" error={err(i, 'source')}>
                {(p) => (
                  <input
                    {...p}
                    className={inputClass}
                    value={v.source}
                    placeholder="namespace/name"
                    onChange={(e) => set(i, { source: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Mount path" error={err(i, 'mountPath')}>
                {(p) => (
                  <input
                    {...p}
                    className={inputClass}
                    value={v.mountPath}
                    onChange={(e) => set(i, { mountPath: e.target.value })}
                  />
                )}
              </Field>
              {v.type !== 'bucket' && (
                <Field label="Revision" error={err(i, 'revision')}>
                  {(p) => (
                    <input
                      {...p}
                      className={inputClass}
                      value={v.revision}
                      placeholder="main"
                      onChange={(e) => set(i, { revision: e.target.value })}
                    />
                  )}
                </Field>
              )}
              <Field label="Path inside" error={err(i, 'path')}>
                {(p) => (
                  <input
                    {...p}
                    className={inputClass}
                    value={v.path}
                    placeholder="subfolder/"
                    onChange={(e) => set(i, { path: e.target.value })}
                  />
                )}
              </Field>
              <div className="flex items-end justify-between gap-2">
                {v.type === 'bucket' ? (
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={v.readOnly}
                      onChange={(e) => set(i, { readOnly: e.target.checked })}
                    />{' '}
                    Read-only
                  </label>
                ) : (
                  <span className="text-xs text-muted">Read-only (repo)</span>
                )}
                <Button variant="ghost" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                  Remove volume {i + 1}
                </Button>
              </div>
            </div>
          ))}
          <Button onClick={() => onChange([...rows, emptyVolume()])}>Add volume</Button>
        </>
      )}
    </FieldGroup>
  );
}
