import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router-dom';
import { useHubClient, useSession } from '../components/session/session-context.tsx';
import { Button } from '../components/ui/button.tsx';
import { whoamiQuery } from '../hub/queries.ts';
import { applyTheme, initialTheme, type Theme } from './theme.ts';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-1.5 text-sm ${isActive ? 'bg-amber-100 font-medium text-amber-950 dark:bg-amber-900/40 dark:text-amber-100' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`;

export function Layout() {
  const client = useHubClient();
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const me = useQuery(whoamiQuery(client));
  const [theme, setTheme] = useState<Theme>(() => {
    const t = initialTheme();
    applyTheme(t);
    return t;
  });
  const toggleTheme = () => {
    const t = theme === 'dark' ? 'light' : 'dark';
    applyTheme(t);
    setTheme(t);
  };
  const orgs = me.data?.orgs ?? [];
  return (
    <div className="flex min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2 focus:text-slate-900">
        Skip to content
      </a>
      <aside className="w-60 shrink-0 border-r border-slate-200 bg-slate-50 p-4 dark:border-slate-800 dark:bg-slate-900">
        <p className="mb-4 text-lg font-semibold">Hub Console</p>
        <nav aria-label="Main" className="space-y-1">
          <NavLink to="/inbox" className={linkClass}>Inbox</NavLink>
          <NavLink to="/settings" className={linkClass}>Settings</NavLink>
          <NavLink to="/webhooks" className={linkClass}>Webhooks</NavLink>
          <NavLink to="/storage" className={linkClass}>Storage</NavLink>
          <NavLink to="/preview" className={linkClass}>Model preview</NavLink>
        </nav>
        <nav aria-label="Organizations" className="mt-6">
          <p className="mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">Organizations</p>
          {orgs.length === 0 && <p className="px-3 text-xs text-slate-600 dark:text-slate-400">{me.isPending ? 'Loading…' : 'None'}</p>}
          <ul className="space-y-1">
            {orgs.map((o) => (
              <li key={o.name}>
                <NavLink to={`/orgs/${encodeURIComponent(o.name)}`} end className={linkClass}>
                  <span>{o.name}</span>
                  <span className="ml-1 text-xs text-slate-600 dark:text-slate-400" data-testid={`org-meta-${o.name}`}>
                    {o.plan ?? 'free'} · {o.roleInOrg ?? 'member'}
                  </span>
                </NavLink>
                <NavLink to={`/orgs/${encodeURIComponent(o.name)}/audit-log`} className={(s) => `${linkClass(s)} pl-6 text-xs`}>
                  Audit log
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-end gap-3 border-b border-slate-200 px-6 py-2 text-sm dark:border-slate-800">
          <span className="truncate text-slate-600 dark:text-slate-400" title={session?.baseUrl}>{session?.baseUrl}</span>
          {me.data && (
            <span className="flex items-center gap-2" data-testid="whoami">
              <img src={me.data.avatarUrl} alt="" className="h-6 w-6 rounded-full bg-slate-300" />
              <span className="font-medium">{me.data.name}</span>
              {me.data.auth.accessToken && <span className="rounded bg-slate-200 px-1.5 text-xs dark:bg-slate-700">{me.data.auth.accessToken.role}</span>}
            </span>
          )}
          <Button variant="ghost" onClick={toggleTheme} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
            {theme === 'dark' ? '☀' : '☾'}
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
        <main id="main" className="min-w-0 flex-1 p-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
