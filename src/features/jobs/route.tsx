import { useQuery } from '@tanstack/react-query';
import { Route, Routes, useParams } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { whoamiQuery } from '../../hub/queries.ts';
import { JobDetail } from './job-detail.tsx';
import { JobList } from './job-list.tsx';

/** `/jobs` (the signed-in user's), `/orgs/:org/jobs`, and a job at `/jobs/:namespace/:jobId`. */
export function Component() {
  const { org } = useParams();
  const client = useHubClient();
  const me = useQuery(whoamiQuery(client));
  if (org) return <JobList namespace={org} />;
  return (
    <Routes>
      <Route
        index
        element={me.isError ? <ErrorPanel error={me.error} title="Could not find out who you are (your jobs are listed by user name)" onRetry={() => void me.refetch()} /> : <JobList namespace={me.data?.name ?? ''} />}
      />
      <Route path=":namespace/:jobId" element={<JobDetail />} />
    </Routes>
  );
}
