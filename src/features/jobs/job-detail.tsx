import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { describeError } from '../../components/ui/describe-error.ts';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { formatDateTime } from '../../components/ui/format.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { jobQuery, whoamiQuery } from '../../hub/queries.ts';
import { isTerminalStage, type Job } from '../../hub/schemas/index.ts';
import { PayloadSection } from './job-payload.tsx';
import { JobLogsSection } from './job-logs.tsx';
import { AccessSection, DetailsSection, EnvironmentSection, TimelineSection, VolumesSection } from './job-sections.tsx';
import { elapsedSecs, formatDuration, runsWhat } from './job-view.ts';
import { jobsListPath } from './paths.ts';
import { StageBadge } from './stage-badge.tsx';
import { useCancelJob } from './use-cancel-job.ts';
import { TextLink } from '../../components/ui/text-link.tsx';

/** While the job is scheduled or running its record is read again, so the stage moves on the page. */
export const JOB_REFRESH_MS = 2_000;

function CancelJob({ job }: { job: Job }) {
  const [asking, setAsking] = useState(false);
  const cancel = useCancelJob(job.owner.name, job.id);
  if (isTerminalStage(job.status.stage)) return null;
  return (
    <>
      <Button variant="danger" onClick={() => setAsking(true)}>
        Cancel job
      </Button>
      {asking && (
        <ConfirmDialog
          open
          danger
          title="Cancel this job?"
          confirmLabel="Cancel job"
          busy={cancel.isPending}
          onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setAsking(false) })}
          onCancel={() => setAsking(false)}
        >
          It stops now and ends as CANCELED; it is not retried.
          {cancel.error && (
            <p className="mt-2 text-danger" role="alert">
              {describeError(cancel.error).message}
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

export function JobDetail() {
  const { namespace = '', jobId = '' } = useParams();
  const client = useHubClient();
  const me = useQuery(whoamiQuery(client));
  const q = useQuery({
    ...jobQuery(client, namespace, jobId),
    refetchInterval: (query) =>
      query.state.data && !isTerminalStage(query.state.data.status.stage) ? JOB_REFRESH_MS : false,
  });
  const back = (
    <p className="mb-2 text-sm">
      <TextLink to={jobsListPath(namespace, me.data?.name)}>← Jobs of {namespace}</TextLink>
    </p>
  );
  if (q.isPending)
    return (
      <>
        {back}
        <Skeleton label="Loading job" />
      </>
    );
  if (q.isError)
    return (
      <>
        {back}
        <ErrorPanel error={q.error} title="Could not load this job" onRetry={() => void q.refetch()} />
      </>
    );
  const job = q.data;
  const what = runsWhat(job);
  return (
    <>
      {back}
      <PageHeader
        title={`Job ${job.id}`}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StageBadge stage={job.status.stage} />
            <span>
              {what ? `${what.name} on ${job.flavor}` : job.flavor} · created {formatDateTime(job.createdAt)} ·{' '}
              {formatDuration(elapsedSecs(job, Date.now()))}
              {isTerminalStage(job.status.stage) ? '' : ' so far'}
            </span>
          </span>
        }
        actions={<CancelJob job={job} />}
      />
      <div className="space-y-8">
        <div className="grid gap-8 lg:grid-cols-2">
          <TimelineSection job={job} />
          <DetailsSection job={job} />
        </div>
        <AccessSection job={job} />
        <VolumesSection job={job} />
        <EnvironmentSection job={job} />
        <PayloadSection environment={job.environment} />
        <JobLogsSection namespace={namespace} jobId={job.id} />
      </div>
    </>
  );
}
