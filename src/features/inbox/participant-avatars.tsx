import { useState } from 'react';
import type { NotificationView } from './notification-view.ts';

const SHOWN = 4;

function Avatar({ user, avatar }: { user: string; avatar: string }) {
  const [broken, setBroken] = useState(false);
  return (
    <span title={user} className="relative -ml-1.5 inline-flex h-6 w-6 items-center justify-center overflow-hidden rounded-full bg-slate-300 text-[10px] font-semibold uppercase text-slate-800 ring-2 ring-white first:ml-0 dark:bg-slate-600 dark:text-slate-100 dark:ring-slate-900">
      {broken || !avatar ? user.slice(0, 2) : <img src={avatar} alt="" className="h-full w-full object-cover" onError={() => setBroken(true)} />}
    </span>
  );
}

/** Overlapping avatars; the names are in the label so screen readers get them too. */
export function ParticipantAvatars({ participants }: { participants: NotificationView['participants'] }) {
  if (participants.length === 0) return null;
  const names = participants.map((p) => p.user).join(', ');
  const more = participants.length - SHOWN;
  return (
    <span className="flex items-center" role="img" aria-label={`Participants: ${names}`} data-testid="participants">
      {participants.slice(0, SHOWN).map((p, i) => (
        <Avatar key={`${p._id}-${i}`} user={p.user} avatar={p.avatar} />
      ))}
      {more > 0 && <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">+{more}</span>}
    </span>
  );
}
