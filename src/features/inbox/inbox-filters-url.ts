import { NotificationFilters, type NotificationFilters as Filters } from '../../hub/schemas/index.ts';

/** Every shared query parameter the inbox keeps in the URL (p included). */
export const FILTER_KEYS = [
  'readStatus',
  'repoType',
  'repoName',
  'postAuthor',
  'paperId',
  'articleId',
  'mention',
  'lastUpdate',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export interface InboxFilters {
  filters: Omit<Filters, 'p'>;
  page: number;
  /** URL parameters that failed the schema and were ignored. */
  invalid: string[];
}

/** Reads the filters from the search params, each one checked by the shared schema. */
export function readFilters(params: URLSearchParams): InboxFilters {
  const filters: Record<string, string> = {};
  const invalid: string[] = [];
  for (const key of FILTER_KEYS) {
    const raw = params.get(key);
    if (raw === null || raw === '') continue;
    const ok = NotificationFilters.shape[key].safeParse(raw).success;
    if (ok) filters[key] = raw;
    else invalid.push(key);
  }
  const rawPage = params.get('p');
  let page = 0;
  if (rawPage !== null) {
    const parsed = NotificationFilters.shape.p.safeParse(rawPage);
    if (parsed.success && parsed.data !== undefined) page = parsed.data;
    else invalid.push('p');
  }
  return { filters: filters as Omit<Filters, 'p'>, page, invalid };
}

/** Search params for a filter state; defaults are left out so URLs stay short. */
export function writeFilters(filters: Omit<Filters, 'p'>, page: number): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const v = filters[key];
    if (v === undefined || v === '') continue;
    if ((key === 'readStatus' || key === 'mention') && v === 'all') continue;
    out.set(key, String(v));
  }
  if (page > 0) out.set('p', String(page));
  return out;
}

export function activeFilterCount(filters: Omit<Filters, 'p'>): number {
  return FILTER_KEYS.filter((k) => {
    const v = filters[k];
    return v !== undefined && v !== '' && !((k === 'readStatus' || k === 'mention') && v === 'all');
  }).length;
}
