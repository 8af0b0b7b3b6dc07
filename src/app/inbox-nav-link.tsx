import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NavLink } from 'react-router-dom';
import { useHubClient } from '../components/session/session-context.tsx';
import { setUnreadInTitle } from '../components/ui/document-title.ts';
import { liveNotificationsQuery } from '../hub/queries.ts';
import { navLinkClass } from './nav-link-class.ts';

/** The Inbox link with the unread count (`count.unread`, which no filter changes), also put in the tab title. */
export function InboxNavLink() {
  const client = useHubClient();
  const unread = useQuery(liveNotificationsQuery(client)).data?.count.unread ?? 0;
  useEffect(() => {
    setUnreadInTitle(unread);
    return () => setUnreadInTitle(0);
  }, [unread]);
  return (
    <NavLink to="/inbox" className={(s) => `${navLinkClass(s)} flex items-center justify-between`}>
      Inbox
      {unread > 0 && (
        <span
          className="rounded-full bg-accent-solid px-1.5 text-xs font-semibold tabular-nums text-on-accent-solid"
          data-testid="inbox-unread-badge"
          data-count={unread}
        >
          <span aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
          <span className="sr-only">{` ${unread} unread`}</span>
        </span>
      )}
    </NavLink>
  );
}
