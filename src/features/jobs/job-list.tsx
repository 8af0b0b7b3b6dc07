import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { formatDateTime, formatRelative } from '../../components/ui/format.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SimpleTable } from '../../components/ui/simple-table.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { UnreadableItems } from '../../components/ui/unreadable.tsx';
import { jobsQuery, whoamiQuery } from '../../hub/queries.ts';
import { isTerminalStage, type Job } from '../../hub/schemas/index.ts';
import { splitReadable } from '../../hub/tolerant-response.ts';
import { JobFilterBar } from './job-filters.tsx';
import { LabelChips } from './label-chips.tsx';
import { elapsedSecs, formatDuration, runsWhat, splitTags } from './job-view.ts';
import { jobPath, jobsListPath } from './paths.ts';
import { StageBadge } from './stage-badge.tsx';
import { listQuery, useJobFilters } from './use-job-filters.ts';
import { TextLink } from '../../components/ui/text-link.tsx';

/** While a job is scheduled or running the list refreshes, so stages move without a reload. */
export const LIVE_REFRESH_MS = 3_000;

function JobRow({ job, onLabel }: { job: Job; onLabel(label: string): void }) {
  const what = runsWhat(job);
  const { labels, plain } = splitTags(job.tags);
  return (
    <tr className="border-t border-border align-top" data-testid="job-row" data-job-id={job.id}>
      <td className="px-3 py-2">
        <TextLink
          to={jobPath(job.owner.name, job.id)}
          className="font-mono text-xs font-medium"
          underline="hover"
          aria-label={`Job ${job.id}`}
        >
          {job.id}
        </TextLink>
      </td>
      <td className="px-3 py-2">
        <StageBadge stage={job.status.stage} />
      </td>
      <td className="whitespace-nowrap px-3 py-2">{job.flavor}</td>
      <td className="max-w-56 truncate px-3 py-2" title={what?.name}>
        {what ? (
          <>
            {what.kind === 'space' && <span className="text-muted">Space </span>}
            {what.name}
          </>
        ) : (
          '—'
        )}
      </td>
      <td className="whitespace-nowrap px-3 py-2">
        <time dateTime={job.createdAt} title={formatDateTime(job.createdAt)}>
          {formatRelative(job.createdAt)}
        </time>
      </td>
      <td className="whitespace-nowrap px-3 py-2" data-testid="job-duration">
        {formatDuration(elapsedSecs(job, Date.now()))}
      </td>
      <td className="px-3 py-2">
        <LabelChips labels={labels} tags={plain} onLabel={onLabel} />
      </td>
    </tr>
  );
}

/** The namespace's jobs, newest first, filtered on the hub by stage and label. */
export function JobList({ namespace }: { namespace: string }) {
  const client = useHubClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  const me = useQuery(whoamiQuery(client));
  const [filters, update] = useJobFilters();
  const q = useQuery({
    ...jobsQuery(client, namespace, listQuery(filters)),
    enabled: Boolean(namespace),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      splitReadable(query.state.data).items.some((j) => !isTerminalStage(j.status.stage)) ? LIVE_REFRESH_MS : false,
  });
  const { items, unreadable } = useMemo(() => splitReadable(q.data), [q.data]);
  const jobs = useMemo(() => [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), [items]);
  const knownLabels = useMemo(
    () => [...new Set(jobs.flatMap((j) => splitTags(j.tags).labels.map(([k, v]) => `${k}=${v}`)))].sort(),
    [jobs],
  );
  const namespaces = [
    ...(me.data ? [{ name: me.data.name, label: `${me.data.name} (you)` }] : []),
    ...(me.data?.orgs ?? []).map((o) => ({ name: o.name, label: `${o.name} (organization)` })),
  ];
  if (namespace && !namespaces.some((n) => n.name === namespace))
    namespaces.push({ name: namespace, label: namespace });
  const mine = namespace === me.data?.name;
  return (
    <>
      <PageHeader
        title={mine || !namespace ? 'Jobs' : `Jobs · ${namespace}`}
        description="Compute jobs, newest first, including those your job webhooks start. Open one for its stages, settings, payload and logs."
      />
      <JobFilterBar
        filters={filters}
        onChange={update}
        namespace={namespace}
        namespaces={namespaces}
        onNamespace={(n) => navigate(`${jobsListPath(n, me.data?.name)}${search}`)}
        knownLabels={knownLabels}
      />
      {(q.isPending || !namespace) && !q.isError && <Skeleton label="Loading jobs" />}
      {q.isError && <ErrorPanel error={q.error} title="Could not load jobs" onRetry={() => void q.refetch()} />}
      <UnreadableItems items={unreadable} what="job" />
      {q.data && jobs.length === 0 && unreadable.length === 0 && (
        <EmptyState title={filters.stage || filters.label ? 'No jobs match these filters' : 'No jobs yet'}>
          {filters.stage || filters.label ? 'Change or clear the filters.' : 'Jobs your webhooks start appear here.'}
        </EmptyState>
      )}
      {jobs.length > 0 && (
        <div className={q.isPlaceholderData ? 'opacity-60' : ''} aria-busy={q.isFetching}>
          <SimpleTable columns={['Job', 'Stage', 'Flavor', 'Image or Space', 'Created', 'Duration', 'Labels']}>
            {jobs.map((j) => (
              <JobRow key={j.id} job={j} onLabel={(label) => update({ label })} />
            ))}
          </SimpleTable>
        </div>
      )}
    </>
  );
}
