import { useQuery } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { notificationSettingsQuery } from '../../hub/queries.ts';
import { NotificationSettingsForm } from './notification-settings-form.tsx';
import { draftFrom } from './settings-draft.ts';
import { useSaveNotificationSettings } from './use-save-notification-settings.ts';

export function NotificationSettingsSection() {
  const client = useHubClient();
  const settings = useQuery(notificationSettingsQuery(client));
  const save = useSaveNotificationSettings();
  return (
    <section aria-labelledby="notifications-heading" className="mb-10">
      <h2 id="notifications-heading" className="mb-3 text-lg font-semibold">
        Notifications
      </h2>
      {settings.isPending ? (
        <Skeleton rows={6} label="Loading notification settings" />
      ) : settings.isError ? (
        <ErrorPanel error={settings.error} title="Could not load notification settings" onRetry={() => void settings.refetch()} />
      ) : (
        <NotificationSettingsForm key={settings.dataUpdatedAt} saved={draftFrom(settings.data)} save={save} />
      )}
    </section>
  );
}
