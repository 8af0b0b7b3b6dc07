import { Field, inputClass } from '../../components/ui/field.tsx';
import { SelectField, optionsOf, type SelectOption } from '../../components/ui/select.tsx';
import { useDebouncedDraft } from '../../components/ui/use-debounced-draft.ts';
import { REPO_TYPES, type WhoamiOrg } from '../../hub/schemas/index.ts';
import type { StorageParams } from './use-storage-params.ts';

const LIMITS = [5, 10, 25, 50, 100, 500];
const TYPE_OPTIONS: SelectOption<StorageParams['type']>[] = [
  { value: '', label: 'All types' },
  ...optionsOf(REPO_TYPES),
];

/** The usual limits, and the URL's own if it is another. */
function limitOptions(limit: number | null): SelectOption[] {
  const limits = [...new Set([...LIMITS, ...(limit ? [limit] : [])])].sort((a, b) => a - b);
  return [{ value: '', label: 'No limit' }, ...limits.map((n) => ({ value: String(n), label: n }))];
}

/** Whose repositories, which ones, how many. Search is applied after a short pause in typing. */
export function StorageFilters({
  params,
  onChange,
  me,
  orgs,
}: {
  params: StorageParams;
  onChange(p: Partial<StorageParams>): void;
  me: string;
  orgs: WhoamiOrg[];
}) {
  const [search, setSearch] = useDebouncedDraft(params.search, (s) => onChange({ search: s }), 300);
  return (
    <div className="mb-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label="Repository filters">
      <SelectField
        label="Owner"
        value={params.org}
        onValueChange={(org) => onChange({ org })}
        options={[
          { value: '', label: `${me} (you)` },
          ...orgs.map((o) => ({ value: o.name, label: `${o.name} (organization)` })),
        ]}
      />
      <Field label="Search repositories">
        {(p) => (
          <input
            {...p}
            type="search"
            className={inputClass}
            value={search}
            placeholder="name contains…"
            onChange={(e) => setSearch(e.target.value)}
          />
        )}
      </Field>
      <SelectField
        label="Repository type"
        value={params.type}
        onValueChange={(type) => onChange({ type })}
        options={TYPE_OPTIONS}
      />
      <SelectField
        label="Limit"
        value={String(params.limit ?? '')}
        onValueChange={(v) => onChange({ limit: v ? Number(v) : null })}
        options={limitOptions(params.limit)}
      />
    </div>
  );
}
