import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys } from '../../hub/queries.ts';

/** POST .../cancel, then the namespace's lists and jobs are read again (the hub's answer body is not relied on). */
export function useCancelJob(namespace: string, jobId: string) {
  const client = useHubClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => client.cancelJob(namespace, jobId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: hubKeys.jobs.namespace(namespace) }),
  });
}
