import { forwardRef } from 'react';
import type { Notification } from '../../hub/schemas/index.ts';
import { formatDateTime, formatRelative } from '../../components/ui/format.ts';
import { KindBadge, StatusBadge } from './kind-badges.tsx';
import { ParticipantAvatars } from './participant-avatars.tsx';
import type { NotificationView } from './notification-view.ts';

interface Props {
  notification: Notification;
  view: NotificationView;
  href: string;
  selected: boolean;
  active: boolean;
  onToggle(): void;
  onFocus(): void;
  /** Opening a notification on the hub also marks it read, as the hub's own inbox does. */
  onOpen(): void;
}

/** One notification; every hub string is a React text child, never HTML. */
export const NotificationRow = forwardRef<HTMLLIElement, Props>(function NotificationRow(
  { notification: n, view, href, selected, active, onToggle, onFocus, onOpen },
  ref,
) {
  const unread = !n.read;
  return (
    <li
      ref={ref}
      tabIndex={-1}
      onFocus={onFocus}
      data-testid="notification-row"
      data-id={view.id}
      data-type={n.type}
      data-read={n.read}
      aria-current={active ? 'true' : undefined}
      className={`flex items-center gap-3 border-b border-border px-3 py-2.5 outline-none last:border-b-0 focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-amber-500 ${active ? 'shadow-[inset_3px_0_0_0_var(--color-amber-500)]' : ''} ${selected ? 'bg-warning-soft' : unread ? 'bg-surface' : 'bg-surface-sunken'}`}
    >
      <input
        type="checkbox"
        checked={selected}
        onChange={onToggle}
        aria-label={`Select: ${view.title}`}
        className="h-4 w-4 shrink-0 accent-amber-600"
      />
      <span className="flex w-3 shrink-0 justify-center">
        {unread && (
          <span className="h-2.5 w-2.5 rounded-full bg-amber-500" data-testid="unread-marker">
            <span className="sr-only">Unread</span>
          </span>
        )}
      </span>
      <KindBadge kind={view.kind} />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <a
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            onClick={onOpen}
            data-open
            className={`truncate text-sm hover:underline ${unread ? 'font-semibold text-foreground' : 'text-soft'}`}
            data-testid="notification-title"
          >
            {view.title}
          </a>
          {view.status && <StatusBadge status={view.status} />}
        </div>
        <p className="truncate text-xs text-muted">{view.context}</p>
      </div>
      <ParticipantAvatars participants={view.participants} />
      <time
        dateTime={n.updatedAt}
        title={formatDateTime(n.updatedAt)}
        className="w-24 shrink-0 text-right text-xs text-muted"
      >
        {formatRelative(n.updatedAt)}
      </time>
    </li>
  );
});
