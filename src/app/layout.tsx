import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router-dom';
import { hubSiteUrl } from '../components/session/proxied-hub.ts';
import { useHubClient, useSession } from '../components/session/session-context.tsx';
import { Button } from '../components/ui/button.tsx';
import { whoamiQuery } from '../hub/queries.ts';
import { AccountBadge } from './account-menu.tsx';
import { InboxNavLink } from './inbox-nav-link.tsx';
import { navLinkClass } from './nav-link-class.ts';
import { OrgNav } from './org-nav.tsx';
import { applyTheme, initialTheme, type Theme } from './theme.ts';
import { useGoShortcuts } from './use-go-shortcuts.ts';

export function Layout() {
  const client = useHubClient();
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const me = useQuery(whoamiQuery(client));
  useGoShortcuts();
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const toggleTheme = () => {
    const t = theme === 'dark' ? 'light' : 'dark';
    applyTheme(t, true);
    setTheme(t);
  };
  return (
    <div className="flex min-h-screen bg-background text-foreground">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:p-2 focus:text-foreground"
      >
        Skip to content
      </a>
      <aside className="w-60 shrink-0 border-r border-border bg-surface-muted p-4">
        <p className="mb-4 text-lg font-semibold">Hub Console</p>
        <p className="sr-only">
          Keyboard: g then i, s, w, j, t or p goes to Inbox, Settings, Webhooks, Jobs, Storage or Model preview.
        </p>
        <nav aria-label="Main" className="space-y-1">
          <InboxNavLink />
          <NavLink to="/settings" className={navLinkClass}>
            Settings
          </NavLink>
          <NavLink to="/webhooks" className={navLinkClass}>
            Webhooks
          </NavLink>
          <NavLink to="/jobs" className={navLinkClass}>
            Jobs
          </NavLink>
          <NavLink to="/storage" className={navLinkClass}>
            Storage
          </NavLink>
          <NavLink to="/preview" className={navLinkClass}>
            Model preview
          </NavLink>
        </nav>
        <OrgNav me={me} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-end gap-3 border-b border-border px-6 py-2 text-sm">
          <span className="mr-auto truncate text-xs text-muted" title="Hub URL">
            {session && hubSiteUrl(session.baseUrl)}
          </span>
          <AccountBadge me={me} />
          <Button
            variant="ghost"
            onClick={toggleTheme}
            aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}
          >
            <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
          </Button>
          <Button
            onClick={() => {
              signOut();
              navigate('/sign-in');
            }}
          >
            Sign out
          </Button>
        </header>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-6 outline-none">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
