import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { hubSiteUrl } from '../../components/session/proxied-hub.ts';
import { ExternalTextLink, TextLink } from '../../components/ui/text-link.tsx';
import { useHubClient, useSession } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { describeError } from '../../components/ui/describe-error.ts';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { formatDateTime } from '../../components/ui/format.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { isEndpointNotExposed } from '../../hub/errors.ts';
import { webhookDeliveryQuery, webhookLogsQuery, whileExposed, whoamiQuery } from '../../hub/queries.ts';
import { DELIVERY_LOG_LIMIT, type WebhookDelivery } from '../../hub/schemas/index.ts';
import { repoWebUrl } from '../../hub/web-urls.ts';
import { splitReadable } from '../../hub/tolerant-response.ts';
import { DeliveryRequestView, DeliveryResponseView } from './delivery-exchange.tsx';
import { failureReason, jobPath } from './delivery-outcome.ts';
import { DeliveryStatus, DeliveryTags } from './delivery-status.tsx';
import { useReplayDelivery } from './use-webhook-mutations.ts';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{term}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

/** Replays this delivery and points at the new log entry once the log has it. */
function ReplayButton({ webhookId, logId }: { webhookId: string; logId: string }) {
  const client = useHubClient();
  const replay = useReplayDelivery(webhookId);
  const logs = useQuery({
    ...webhookLogsQuery(client, webhookId),
    enabled: (query) => replay.isSuccess && whileExposed(query),
  });
  const replayEntry = replay.isSuccess
    ? splitReadable(logs.data)
        .items.filter((e) => e.replayOf === logId)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]
    : undefined;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="primary" onClick={() => replay.mutate(logId)} disabled={replay.isPending}>
        {replay.isPending ? 'Replaying…' : 'Replay'}
      </Button>
      <span role="status" className="text-sm" data-testid="replay-result">
        {replay.isSuccess && `Replayed: ${replay.data.status ? `HTTP ${replay.data.status}` : 'no response'}`}
        {replayEntry && (
          <>
            {' · '}
            <TextLink underline="hover" to={`../${replayEntry.id}`} relative="path">
              View the replay
            </TextLink>
          </>
        )}
        {replay.isError && <span className="text-danger">Replay failed: {describeError(replay.error).message}</span>}
      </span>
    </div>
  );
}

function Summary({ d, owner, hubUrl }: { d: WebhookDelivery; owner: string | undefined; hubUrl: string }) {
  const reason = failureReason(d);
  const job = jobPath(d, owner);
  return (
    <dl
      className="mb-6 grid gap-4 rounded-lg border border-border p-4 sm:grid-cols-2 lg:grid-cols-4"
      data-testid="delivery-summary"
    >
      <Fact term="Time">
        <time dateTime={d.createdAt}>{formatDateTime(d.createdAt)}</time>
        <DeliveryTags entry={d} />
      </Fact>
      <Fact term="Event">
        <code>{d.event.scope}</code> · {d.event.action}
      </Fact>
      <Fact term="Repository">
        {d.repo ? (
          <ExternalTextLink underline="hover" href={repoWebUrl(hubUrl, d.repo)}>
            {d.repo.type} {d.repo.name}
          </ExternalTextLink>
        ) : (
          '—'
        )}
      </Fact>
      <Fact term="Target">
        {job ? (
          <TextLink underline="hover" to={job} data-testid="job-link">
            {d.target}
          </TextLink>
        ) : (
          d.target
        )}
      </Fact>
      <Fact term="Receiver status">
        <DeliveryStatus entry={d} />
      </Fact>
      <Fact term="Response time">{Math.round(d.durationMs)} ms</Fact>
      <Fact term="Failure reason">
        {reason ? (
          <span data-testid="failure-reason">
            <span className="font-medium">{reason.label}.</span> {reason.detail}
          </span>
        ) : (
          'None: delivered.'
        )}
      </Fact>
      {d.replayOf && (
        <Fact term="Replay of">
          <TextLink underline="hover" to={`../${d.replayOf}`} relative="path">
            the original delivery
          </TextLink>
        </Fact>
      )}
    </dl>
  );
}

/** `/webhooks/:id/deliveries/:logId`: one delivery, what was sent and what came back. */
export function DeliveryDetail() {
  const { id = '', logId = '' } = useParams();
  const client = useHubClient();
  const { session } = useSession();
  const me = useQuery(whoamiQuery(client));
  const q = useQuery(webhookDeliveryQuery(client, id, logId));
  const back = (
    <p className="mb-2 text-sm">
      <TextLink underline="hover" to="../.." relative="path">
        ← Webhook and its delivery log
      </TextLink>
    </p>
  );
  if (q.isPending)
    return (
      <>
        {back}
        <Skeleton label="Loading the delivery" />
      </>
    );
  if (q.isError) {
    return (
      <>
        {back}
        {isEndpointNotExposed(q.error) ? (
          <p className="rounded-lg border border-border p-3 text-sm" data-testid="delivery-missing">
            This delivery is not in the log: the hub keeps the last {DELIVERY_LOG_LIMIT} deliveries of each webhook, and
            a hub without the delivery log (such as the real hub) has none to show.
          </p>
        ) : (
          <ErrorPanel error={q.error} title="Could not load this delivery" onRetry={() => void q.refetch()} />
        )}
      </>
    );
  }
  const d = q.data;
  return (
    <>
      {back}
      <PageHeader
        title="Delivery"
        description={`${d.event.scope}.${d.event.action} on ${formatDateTime(d.createdAt)}`}
        actions={<ReplayButton webhookId={id} logId={logId} />}
      />
      <Summary d={d} owner={me.data?.name} hubUrl={hubSiteUrl(session?.baseUrl ?? '')} />
      <div className="grid gap-6 xl:grid-cols-2">
        <DeliveryRequestView delivery={d} />
        <DeliveryResponseView delivery={d} />
      </div>
    </>
  );
}
