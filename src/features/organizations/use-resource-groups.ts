import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys } from '../../hub/queries.ts';
import type { ResourceGroup, ResourceGroupCreate, ResourceGroupPatch } from '../../hub/schemas/index.ts';

function useStore(org: string) {
  const queryClient = useQueryClient();
  const keys = hubKeys.org(org);
  return {
    put(g: ResourceGroup) {
      queryClient.setQueryData(keys.resourceGroup(g.id), g);
      return queryClient.invalidateQueries({ queryKey: keys.resourceGroups(), exact: true });
    },
    drop(id: string) {
      queryClient.removeQueries({ queryKey: keys.resourceGroup(id) });
      return queryClient.invalidateQueries({ queryKey: keys.resourceGroups(), exact: true });
    },
  };
}

export function useCreateResourceGroup(org: string) {
  const client = useHubClient();
  const store = useStore(org);
  return useMutation({
    mutationFn: (body: ResourceGroupCreate) => client.createResourceGroup(org, body),
    onSuccess: (g) => store.put(g),
  });
}

export function usePatchResourceGroup(org: string, id: string) {
  const client = useHubClient();
  const store = useStore(org);
  return useMutation({
    mutationFn: (body: ResourceGroupPatch) => client.patchResourceGroup(org, id, body),
    onSuccess: (g) => store.put(g),
  });
}

export function useDeleteResourceGroup(org: string, id: string) {
  const client = useHubClient();
  const store = useStore(org);
  return useMutation({ mutationFn: () => client.deleteResourceGroup(org, id), onSuccess: () => store.drop(id) });
}
