import { useQuery } from '@tanstack/react-query';
import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { whoamiQuery } from '../../hub/queries.ts';
import { JobDetail } from './job-detail.tsx';
import { JobList } from './job-list.tsx';
import { jobsListPath } from './paths.ts';

/** `/jobs/<namespace>` alone: the namespace's list (`/jobs` for your own, `/orgs/<org>/jobs` otherwise). */
function NamespaceList({ me }: { me: string | undefined }) {
  const { namespace = '' } = useParams();
  return me === undefined ? <JobList namespace={namespace} /> : <Navigate to={jobsListPath(namespace, me)} replace />;
}

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
        element={
          me.isError ? (
            <ErrorPanel
              error={me.error}
              title="Could not find out who you are (your jobs are listed by user name)"
              onRetry={() => void me.refetch()}
            />
          ) : (
            <JobList namespace={me.data?.name ?? ''} />
          )
        }
      />
      <Route path=":namespace" element={<NamespaceList me={me.data?.name} />} />
      <Route path=":namespace/:jobId" element={<JobDetail />} />
      <Route path="*" element={<p className="text-sm">This page does not exist.</p>} />
    </Routes>
  );
}
