import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { whoamiQuery } from '../../hub/queries.ts';
import { planName } from './plan-rules.ts';
import { ResourceGroupsSection } from './resource-groups-section.tsx';
import { TokenRevokeSection } from './token-revoke-section.tsx';

const actionLink = 'rounded-md border border-border-strong px-3 py-1.5 text-sm font-medium hover:bg-subtle';

export function Component() {
  const { org = '' } = useParams();
  const client = useHubClient();
  const me = useQuery(whoamiQuery(client));
  if (me.isPending) return <Skeleton label="Loading organization" />;
  if (me.isError)
    return <ErrorPanel error={me.error} title="Could not load your account" onRetry={() => void me.refetch()} />;
  const info = me.data.orgs.find((o) => o.name === org);
  return (
    <>
      <PageHeader
        title={info?.fullname || org}
        description={
          info
            ? `${org} · ${planName(info.plan)} plan · your role: ${info.roleInOrg ?? 'member'}`
            : `You are not a member of ${org}.`
        }
        actions={
          <>
            <Link to="jobs" relative="path" className={actionLink}>
              Jobs
            </Link>
            <Link to="audit-log" relative="path" className={actionLink}>
              Audit log
            </Link>
          </>
        }
      />
      <div className="space-y-10">
        <ResourceGroupsSection key={org} org={org} info={info} />
        <TokenRevokeSection key={`revoke:${org}`} org={org} info={info} />
      </div>
    </>
  );
}
