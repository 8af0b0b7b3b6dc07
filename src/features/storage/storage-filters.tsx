import { useEffect, useState } from 'react';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { REPO_TYPES, type WhoamiOrg } from '../../hub/schemas/index.ts';
import type { StorageParams } from './use-storage-params.ts';

const LIMITS = [5, 10, 25, 50, 100, 500];

/** Whose repositories, which ones, how many. Search is applied after a short pause in typing. */
export function StorageFilters({ params, onChange, me, orgs }: { params: StorageParams; onChange(p: Partial<StorageParams>): void; me: string; orgs: WhoamiOrg[] }) {
  const [search, setSearch] = useState(params.search);
  useEffect(() => setSearch(params.search), [params.search]);
  useEffect(() => {
    if (search === params.search) return;
    const t = setTimeout(() => onChange({ search }), 300);
    return () => clearTimeout(t);
  }, [search, params.search, onChange]);
  return (
    <div className="mb-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label="Repository filters">
      <Field label="Owner">
        {(p) => (
          <select {...p} className={inputClass} value={params.org} onChange={(e) => onChange({ org: e.target.value })}>
            <option value="">{me} (you)</option>
            {orgs.map((o) => (
              <option key={o.name} value={o.name}>
                {o.name} (organization)
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Search repositories">
        {(p) => <input {...p} type="search" className={inputClass} value={search} placeholder="name contains…" onChange={(e) => setSearch(e.target.value)} />}
      </Field>
      <Field label="Repository type">
        {(p) => (
          <select {...p} className={inputClass} value={params.type} onChange={(e) => onChange({ type: e.target.value as StorageParams['type'] })}>
            <option value="">All types</option>
            {REPO_TYPES.map((t) => (
              <option key={t} value={t}>{t}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Limit">
        {(p) => (
          <select {...p} className={inputClass} value={params.limit ?? ''} onChange={(e) => onChange({ limit: e.target.value ? Number(e.target.value) : null })}>
            <option value="">No limit</option>
            {[...new Set([...LIMITS, ...(params.limit ? [params.limit] : [])])].sort((a, b) => a - b).map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
