import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { JOB_STAGES } from '../../hub/schemas/index.ts';
import { stageLabel } from './stage-badge.tsx';
import { labelError, type JobFilters } from './use-job-filters.ts';

export interface NamespaceChoice {
  name: string;
  label: string;
}

/**
 * Whose jobs, which stage, which label. The label applies once it is a valid `key=value`, after a
 * short pause in typing (or Enter); until then its problem shows next to it.
 */
export function JobFilterBar(props: {
  filters: JobFilters;
  onChange(patch: Partial<JobFilters>): void;
  namespace: string;
  namespaces: NamespaceChoice[];
  onNamespace(name: string): void;
  knownLabels: string[];
}) {
  const { filters, onChange } = props;
  const [label, setLabel] = useState(filters.label);
  useEffect(() => setLabel(filters.label), [filters.label]);
  useEffect(() => {
    if (label === filters.label || labelError(label)) return;
    const t = setTimeout(() => onChange({ label }), 400);
    return () => clearTimeout(t);
  }, [label, filters.label, onChange]);
  const error = labelError(label);
  return (
    <div className="mb-5 grid items-start gap-3 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label="Job filters">
      <Field label="Namespace">
        {(p) => (
          <select {...p} className={inputClass} value={props.namespace} onChange={(e) => props.onNamespace(e.target.value)}>
            {props.namespaces.map((n) => (
              <option key={n.name} value={n.name}>{n.label}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Stage">
        {(p) => (
          <select {...p} className={inputClass} value={filters.stage} onChange={(e) => onChange({ stage: e.target.value as JobFilters['stage'] })}>
            <option value="">All stages</option>
            {JOB_STAGES.map((s) => (
              <option key={s} value={s}>{stageLabel(s)}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Label" error={error} hint={error ? undefined : 'key=value, e.g. team=ml'}>
        {(p) => (
          <>
            <input
              {...p}
              type="search"
              list="job-label-suggestions"
              className={inputClass}
              value={label}
              placeholder="key=value"
              onChange={(e) => setLabel(e.target.value.trim())}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !labelError(label)) onChange({ label });
              }}
            />
            <datalist id="job-label-suggestions">
              {props.knownLabels.map((l) => (
                <option key={l} value={l} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      {(filters.stage || filters.label) && (
        <div className="self-end">
          <Button onClick={() => onChange({ stage: '', label: '' })}>Clear filters</Button>
        </div>
      )}
    </div>
  );
}
