import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys } from '../../hub/queries.ts';
import type { PaperClaim } from '../../hub/schemas/index.ts';

export function usePaperClaim() {
  const client = useHubClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PaperClaim) => client.claimPaper(body),
    onSuccess: (_r, body) => queryClient.invalidateQueries({ queryKey: hubKeys.papers.detail(body.paperId) }),
  });
}
