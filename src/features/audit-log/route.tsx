import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { describeError, isForbidden } from '../../components/ui/describe-error.ts';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { UnreadableItems } from '../../components/ui/unreadable.tsx';
import { whoamiQuery } from '../../hub/queries.ts';
import { AUDIT_EXPORT_LIMIT } from '../../hub/schemas/index.ts';
import { splitReadable } from '../../hub/tolerant-response.ts';
import { AuditLogView } from './audit-log-view.tsx';
import { PlanGate } from './plan-gate.tsx';
import { QueryBuilder } from './query-builder.tsx';
import { useAuditExport } from './use-audit-export.ts';
import { useAuditParams } from './use-audit-params.ts';
import { TextLink } from '../../components/ui/text-link.tsx';

const PAID = ['team', 'enterprise', 'enterprise_plus'];

export function Component() {
  const { org = '' } = useParams();
  const client = useHubClient();
  const [params, update] = useAuditParams();
  const me = useQuery(whoamiQuery(client));
  const info = me.data?.orgs.find((o) => o.name === org);
  const plan = info?.plan;
  // A known free plan is explained without asking the hub; anything else is the hub's call (403).
  const gated = plan !== undefined && !PAID.includes(plan);
  const { query: exportQuery, preview } = useAuditExport(org, params.q, !gated && !params.qError && !me.isPending);
  const exported = useMemo(() => splitReadable(exportQuery.data?.events), [exportQuery.data]);

  let body;
  if (gated) body = <PlanGate org={org} plan={plan} />;
  else if (params.qError)
    body = (
      <ErrorPanel
        error={new Error(`The filter in the address is not valid: ${params.qError}`)}
        title="Invalid filter"
        onRetry={() => update({ terms: [] })}
      />
    );
  else if (exportQuery.isError && isForbidden(exportQuery.error))
    body = (
      <PlanGate org={org} plan={plan} role={info?.roleInOrg} hubMessage={describeError(exportQuery.error).message} />
    );
  else if (exportQuery.isError)
    body = (
      <ErrorPanel
        error={exportQuery.error}
        title="Could not export the audit log"
        onRetry={() => void exportQuery.refetch()}
      />
    );
  else if (exportQuery.data)
    body = (
      <>
        <UnreadableItems items={exported.unreadable} what="audit event" />
        <AuditLogView
          org={org}
          events={exported.items}
          result={exportQuery.data}
          params={params}
          update={update}
          fetching={exportQuery.isFetching}
          onRefresh={() => void exportQuery.refetch()}
        />
      </>
    );
  else if (preview)
    body = <AuditLogView org={org} events={preview} result={null} params={params} update={update} fetching />;
  else body = <Skeleton rows={8} label="Exporting the audit log" />;

  return (
    <>
      <p className="mb-2 text-sm">
        <TextLink to={`/orgs/${encodeURIComponent(org)}`}>← {org}</TextLink>
      </p>
      <PageHeader
        title={`Audit log · ${org}`}
        description={`Who did what in ${org}: the last ${AUDIT_EXPORT_LIMIT.toLocaleString('en')} events at most.`}
      />
      {!gated && (
        <div className="mb-4">
          <QueryBuilder terms={params.terms} onChange={(terms) => update({ terms })} />
        </div>
      )}
      {body}
    </>
  );
}
