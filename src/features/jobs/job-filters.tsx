import { Button } from '../../components/ui/button.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { SelectField, type SelectOption } from '../../components/ui/select.tsx';
import { useDebouncedDraft } from '../../components/ui/use-debounced-draft.ts';
import { JOB_STAGES } from '../../hub/schemas/index.ts';
import { stageLabel } from './stage-badge.tsx';
import { labelError, type JobFilters } from './use-job-filters.ts';

const STAGE_OPTIONS: SelectOption<JobFilters['stage']>[] = [
  { value: '', label: 'All stages' },
  ...JOB_STAGES.map((s) => ({ value: s, label: stageLabel(s) })),
];

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
  const [label, setLabel] = useDebouncedDraft(filters.label, (l) => onChange({ label: l }), 400, labelError);
  const error = labelError(label);
  return (
    <div className="mb-5 grid items-start gap-3 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label="Job filters">
      <SelectField
        label="Namespace"
        value={props.namespace}
        onValueChange={props.onNamespace}
        options={props.namespaces.map((n) => ({ value: n.name, label: n.label }))}
      />
      <SelectField
        label="Stage"
        value={filters.stage}
        onValueChange={(stage) => onChange({ stage })}
        options={STAGE_OPTIONS}
      />
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
