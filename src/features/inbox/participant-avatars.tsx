import { Avatar } from '../../components/ui/avatar.tsx';
import type { NotificationView } from './notification-view.ts';

const SHOWN = 4;

/** Overlapping avatars; the names are in the label so screen readers get them too. */
export function ParticipantAvatars({ participants }: { participants: NotificationView['participants'] }) {
  if (participants.length === 0) return null;
  const names = participants.map((p) => p.user).join(', ');
  const more = participants.length - SHOWN;
  return (
    <span className="flex items-center" role="img" aria-label={`Participants: ${names}`} data-testid="participants">
      {participants.slice(0, SHOWN).map((p, i) => (
        <Avatar key={`${p._id}-${i}`} src={p.avatar} name={p.user} className="-ml-1.5 ring-2 ring-surface first:ml-0" />
      ))}
      {more > 0 && <span className="ml-1 text-xs text-muted">+{more}</span>}
    </span>
  );
}
