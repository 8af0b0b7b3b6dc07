import { useRef, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/field.tsx';
import { Select, optionsOf } from '../../components/ui/select.tsx';
import { REPO_TYPES, type NotificationFilters } from '../../hub/schemas/index.ts';
import { activeFilterCount, FILTER_KEYS } from './inbox-filters-url.ts';

type Filters = Omit<NotificationFilters, 'p'>;

const READ_STATUS_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
];
const MENTION_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'participating', label: 'Participating' },
  { value: 'mentions', label: 'Mentions' },
];
const REPO_TYPE_OPTIONS = [{ value: '', label: 'Any' }, ...optionsOf(REPO_TYPES)];

/** datetime-local works in local time; the hub wants UTC with Z. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function fromLocalInput(v: string): string | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function Labelled({ label, children, htmlFor }: { label: string; htmlFor: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <label htmlFor={htmlFor} className="mb-0.5 block text-xs font-medium text-soft">
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * Selects apply at once; text fields apply on Enter or with Apply. The form is uncontrolled and
 * remounted (keyed by the caller) whenever the URL changes, so back/forward resets it too.
 */
export function FilterBar({ filters, onChange }: { filters: Filters; onChange(f: Filters): void }) {
  const form = useRef<HTMLFormElement>(null);
  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (!form.current) return;
    const data = new FormData(form.current);
    const next: Record<string, string> = {};
    for (const key of FILTER_KEYS) {
      const raw = String(data.get(key) ?? '').trim();
      const value = key === 'lastUpdate' ? fromLocalInput(raw) : raw;
      if (value) next[key] = value;
    }
    onChange(next as Filters);
  }
  const applyNow = () => form.current?.requestSubmit();
  const active = activeFilterCount(filters);
  return (
    <form
      ref={form}
      onSubmit={submit}
      role="search"
      aria-label="Filter notifications"
      className="mb-4 grid grid-cols-2 gap-3 rounded-lg border border-border p-3 md:grid-cols-4 xl:grid-cols-8"
    >
      <Labelled label="Read status" htmlFor="f-readStatus">
        <Select
          id="f-readStatus"
          name="readStatus"
          defaultValue={filters.readStatus ?? 'all'}
          onChange={applyNow}
          options={READ_STATUS_OPTIONS}
        />
      </Labelled>
      <Labelled label="Mention" htmlFor="f-mention">
        <Select
          id="f-mention"
          name="mention"
          defaultValue={filters.mention ?? 'all'}
          onChange={applyNow}
          options={MENTION_OPTIONS}
        />
      </Labelled>
      <Labelled label="Repo type" htmlFor="f-repoType">
        <Select
          id="f-repoType"
          name="repoType"
          defaultValue={filters.repoType ?? ''}
          onChange={applyNow}
          options={REPO_TYPE_OPTIONS}
        />
      </Labelled>
      <Labelled label="Repo name" htmlFor="f-repoName">
        <input
          id="f-repoName"
          name="repoName"
          defaultValue={filters.repoName ?? ''}
          placeholder="owner/name"
          className={inputClass}
        />
      </Labelled>
      <Labelled label="Post author" htmlFor="f-postAuthor">
        <input id="f-postAuthor" name="postAuthor" defaultValue={filters.postAuthor ?? ''} className={inputClass} />
      </Labelled>
      <Labelled label="Paper id" htmlFor="f-paperId">
        <input id="f-paperId" name="paperId" defaultValue={filters.paperId ?? ''} className={inputClass} />
      </Labelled>
      <Labelled label="Article id" htmlFor="f-articleId">
        <input id="f-articleId" name="articleId" defaultValue={filters.articleId ?? ''} className={inputClass} />
      </Labelled>
      <Labelled label="Updated before" htmlFor="f-lastUpdate">
        <input
          id="f-lastUpdate"
          name="lastUpdate"
          type="datetime-local"
          defaultValue={toLocalInput(filters.lastUpdate)}
          onChange={applyNow}
          className={inputClass}
        />
      </Labelled>
      <div className="col-span-full flex items-center gap-2">
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        {active > 0 && (
          <Button variant="ghost" onClick={() => onChange({})}>
            Clear {active} filter{active === 1 ? '' : 's'}
          </Button>
        )}
        <span className="ml-auto text-xs text-muted" aria-hidden="true">
          Keys: <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>x</kbd> select · <kbd>r</kbd> read · <kbd>u</kbd> unread ·{' '}
          <kbd>o</kbd> open · <kbd>/</kbd> filter · <kbd>Esc</kbd> clear
        </span>
      </div>
    </form>
  );
}
