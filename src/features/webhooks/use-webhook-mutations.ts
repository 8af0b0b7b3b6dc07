import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys } from '../../hub/queries.ts';
import type { TestEventSample, Webhook, WebhookInput, WebhookUpdateInput } from '../../hub/schemas/index.ts';

function useRefresh() {
  const queryClient = useQueryClient();
  return (w?: Webhook) => {
    if (w) queryClient.setQueryData(hubKeys.webhooks.detail(w.id), w);
    return queryClient.invalidateQueries({ queryKey: hubKeys.webhooks.all });
  };
}

export function useCreateWebhook() {
  const client = useHubClient();
  const refresh = useRefresh();
  return useMutation({ mutationFn: (body: WebhookInput) => client.createWebhook(body), onSuccess: (w) => refresh(w) });
}

export function useUpdateWebhook(id: string) {
  const client = useHubClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: WebhookUpdateInput) => client.updateWebhook(id, body),
    onSuccess: (w) => refresh(w),
  });
}

export function useWebhookAction(id: string) {
  const client = useHubClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (action: 'enable' | 'disable') => client.webhookAction(id, action),
    onSuccess: (w) => refresh(w),
  });
}

export function useDeleteWebhook(id: string) {
  const client = useHubClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => client.deleteWebhook(id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: hubKeys.webhooks.detail(id) });
      return queryClient.invalidateQueries({ queryKey: hubKeys.webhooks.list() });
    },
  });
}

export function useReplayDelivery(id: string) {
  const client = useHubClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (logId: string) => client.replayWebhookDelivery(id, logId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: hubKeys.webhooks.logs(id) }),
  });
}

/** "Send test event": answered once the delivery is logged, so the log is refreshed right after. */
export function useSendTestEvent(id: string) {
  const client = useHubClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sample: TestEventSample) => client.sendWebhookTestEvent(id, { sample }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: hubKeys.webhooks.logs(id) }),
        queryClient.invalidateQueries({ queryKey: hubKeys.webhooks.detail(id), exact: true }),
      ]),
  });
}
