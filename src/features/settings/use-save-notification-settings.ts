import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys } from '../../hub/queries.ts';
import type { NotificationSettingsPatch } from '../../hub/schemas/index.ts';

export function useSaveNotificationSettings() {
  const client = useHubClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: NotificationSettingsPatch) => client.patchNotificationSettings(patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: hubKeys.settings.notifications() }),
  });
}
