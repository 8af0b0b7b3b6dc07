import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { NotExposedNote } from '../../components/ui/not-exposed-note.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { isEndpointNotExposed } from '../../hub/errors.ts';
import { notificationSettingsQuery } from '../../hub/queries.ts';
import { NotificationSettingsForm } from './notification-settings-form.tsx';
import { draftFrom, unknownDraft, type Draft } from './settings-draft.ts';
import { useSaveNotificationSettings } from './use-save-notification-settings.ts';

/** Values this page set on a hub that does not expose the current ones (the rest stay unknown). */
function useKnownSoFar() {
  const [known, setKnown] = useState<{ draft: Draft; saves: number }>(() => ({ draft: unknownDraft(), saves: 0 }));
  return {
    known: known.draft,
    key: known.saves,
    remember: (draft: Draft) => setKnown((k) => ({ draft, saves: k.saves + 1 })),
  };
}

export function NotificationSettingsSection() {
  const client = useHubClient();
  const settings = useQuery(notificationSettingsQuery(client));
  const save = useSaveNotificationSettings();
  const soFar = useKnownSoFar();
  let body;
  if (settings.isPending) body = <Skeleton rows={6} label="Loading notification settings" />;
  else if (isEndpointNotExposed(settings.error))
    body = (
      <>
        <NotExposedNote error={settings.error}>
          set each flag to On or Off, or leave it unchanged; Save sends only the flags you set.
        </NotExposedNote>
        <NotificationSettingsForm key={soFar.key} saved={soFar.known} save={save} threeWay onSaved={soFar.remember} />
      </>
    );
  else if (settings.isError)
    body = (
      <ErrorPanel
        error={settings.error}
        title="Could not load notification settings"
        onRetry={() => void settings.refetch()}
      />
    );
  else body = <NotificationSettingsForm key={settings.dataUpdatedAt} saved={draftFrom(settings.data)} save={save} />;
  return (
    <section aria-labelledby="notifications-heading" className="mb-10">
      <h2 id="notifications-heading" className="mb-3 text-lg font-semibold">
        Notifications
      </h2>
      {body}
    </section>
  );
}
