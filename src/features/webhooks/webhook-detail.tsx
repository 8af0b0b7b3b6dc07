import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { formatDateTime } from '../../components/ui/format.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { webhookQuery } from '../../hub/queries.ts';
import type { Webhook } from '../../hub/schemas/index.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { draftFromWebhook } from './form-model.ts';
import { StateBadge, webhookState } from './state-badge.tsx';
import { useDeleteWebhook, useUpdateWebhook, useWebhookAction } from './use-webhook-mutations.ts';
import { WebhookForm } from './webhook-form.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';

type Pending = 'enable' | 'disable' | 'delete' | null;

const COPY = {
  enable: { title: 'Enable this webhook?', body: 'Matching events will be delivered again.', label: 'Enable' },
  disable: { title: 'Disable this webhook?', body: 'Events are not delivered while it is disabled.', label: 'Disable' },
  delete: {
    title: 'Delete this webhook?',
    body: 'Its configuration and delivery log are removed. This cannot be undone.',
    label: 'Delete',
  },
} as const;

function WebhookActions({ webhook }: { webhook: Webhook }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<Pending>(null);
  const action = useWebhookAction(webhook.id);
  const remove = useDeleteWebhook(webhook.id);
  const state = webhookState(webhook.disabled);
  const error = action.error ?? remove.error;
  const confirm = () => {
    if (pending === 'delete') remove.mutate(undefined, { onSuccess: () => navigate('..', { relative: 'path' }) });
    else if (pending) action.mutate(pending, { onSettled: () => setPending(null) });
  };
  return (
    <>
      <div className="flex gap-2">
        {state === 'enabled' ? (
          <Button onClick={() => setPending('disable')}>Disable</Button>
        ) : (
          <Button onClick={() => setPending('enable')}>Enable</Button>
        )}
        <Button variant="danger" onClick={() => setPending('delete')}>
          Delete
        </Button>
      </div>
      {pending && (
        <ConfirmDialog
          open
          title={COPY[pending].title}
          confirmLabel={COPY[pending].label}
          danger={pending !== 'enable'}
          busy={action.isPending || remove.isPending}
          onConfirm={confirm}
          onCancel={() => setPending(null)}
        >
          {COPY[pending].body}
          {error && (
            <p className="mt-2 text-danger" role="alert">
              {error.message}
            </p>
          )}
        </ConfirmDialog>
      )}
      {!pending && error && (
        <div className="mt-3">
          <ErrorPanel error={error} title="The change was not applied" />
        </div>
      )}
    </>
  );
}

export function WebhookDetail() {
  const { id = '' } = useParams();
  const client = useHubClient();
  const q = useQuery(webhookQuery(client, id));
  const save = useUpdateWebhook(id);
  const [saved, setSaved] = useState(false);
  // Bumped on each save: the editor restarts from what the hub now has (secret values blank again).
  const [version, setVersion] = useState(0);
  if (q.isPending) return <Skeleton label="Loading webhook" />;
  if (q.isError)
    return <ErrorPanel error={q.error} title="Could not load this webhook" onRetry={() => void q.refetch()} />;
  const w = q.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <TextLink to=".." relative="path">
          ← All webhooks
        </TextLink>
      </p>
      <PageHeader
        title="Edit webhook"
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StateBadge disabled={w.disabled} />
            <span>Last trigger: {w.lastTriggerAt ? formatDateTime(w.lastTriggerAt) : 'never'}</span>
            {w.disabled === 'suspended-after-failure' && (
              <span>The hub stopped delivering after repeated failures; fix the receiver, then enable it.</span>
            )}
          </span>
        }
        actions={<WebhookActions webhook={w} />}
      />
      {/* Deliveries first: what people check daily; the configuration follows. */}
      <DeliveryLog webhook={w} />
      <h2 className="mb-3 mt-8 text-lg font-semibold">Configuration</h2>
      {/* Keyed by id (and save) so a different or saved webhook starts from its own values. */}
      <WebhookForm
        key={`${w.id}:${version}`}
        initial={draftFromWebhook(w)}
        editing
        submitLabel="Save changes"
        onSubmit={async (body) => {
          setSaved(false);
          await save.mutateAsync(body);
          setSaved(true);
          setVersion((v) => v + 1);
        }}
      />
      {saved && (
        <p role="status" className="mt-2 text-sm text-success">
          Saved.
        </p>
      )}
    </>
  );
}
