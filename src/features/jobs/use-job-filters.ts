import { useMemo } from 'react';
import { useSearchPatch } from '../../components/url/use-search-patch.ts';
import { JOB_STAGES, LabelFilter, type JobListQuery, type JobStage } from '../../hub/schemas/index.ts';

export interface JobFilters {
  stage: JobStage | '';
  /** `key=value` as typed; only a valid one filters. */
  label: string;
}

const isStage = (v: string | null): v is JobStage => (JOB_STAGES as readonly string[]).includes(v ?? '');

/** The label filter's problem, in words, or null when it is empty or valid. */
export function labelError(label: string): string | null {
  if (!label) return null;
  const r = LabelFilter.safeParse(label);
  return r.success ? null : (r.error.issues[0]?.message ?? 'not a key=value label');
}

/** What the hub is asked for: only filters that are set and valid. */
export function listQuery(f: JobFilters): JobListQuery {
  return { ...(f.stage ? { stage: [f.stage] } : {}), ...(f.label && !labelError(f.label) ? { label: [f.label] } : {}) };
}

/** Filters live in the URL (`?stage=RUNNING&label=team%3Dml`), so a view can be bookmarked; an unknown stage is ignored. */
export function useJobFilters(): [JobFilters, (patch: Partial<JobFilters>) => void] {
  const [sp, update] = useSearchPatch();
  const filters = useMemo<JobFilters>(
    () => ({ stage: isStage(sp.get('stage')) ? (sp.get('stage') as JobStage) : '', label: sp.get('label') ?? '' }),
    [sp],
  );
  return [filters, update];
}
