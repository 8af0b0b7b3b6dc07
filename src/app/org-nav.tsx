import type { UseQueryResult } from '@tanstack/react-query';
import { NavLink } from 'react-router-dom';
import { Avatar } from '../components/ui/avatar.tsx';
import type { Whoami } from '../hub/schemas/index.ts';
import { navLinkClass } from './nav-link-class.ts';

const planLabel: Record<string, string> = {
  free: 'Free',
  team: 'Team',
  enterprise: 'Enterprise',
  enterprise_plus: 'Enterprise Plus',
};

/** The orgs the user can switch to, each with its plan and the user's role in it. */
export function OrgNav({ me }: { me: UseQueryResult<Whoami> }) {
  const orgs = me.data?.orgs ?? [];
  return (
    <nav aria-label="Organizations" className="mt-6">
      <p className="mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-muted">Organizations</p>
      {me.isPending && <p className="px-3 text-xs text-muted">Loading…</p>}
      {me.isSuccess && orgs.length === 0 && <p className="px-3 text-xs text-muted">You are in no organization.</p>}
      <ul className="space-y-1">
        {orgs.map((o) => (
          <li key={o.name}>
            <NavLink
              to={`/orgs/${encodeURIComponent(o.name)}`}
              end
              className={(s) => `${navLinkClass(s)} flex items-center gap-2`}
            >
              <Avatar src={o.avatarUrl} name={o.name} />
              <span className="min-w-0">
                <span className="block truncate">{o.name}</span>
                <span className="block text-xs text-muted" data-testid={`org-meta-${o.name}`}>
                  {planLabel[o.plan ?? 'free'] ?? o.plan} · {o.roleInOrg ?? 'member'}
                </span>
              </span>
            </NavLink>
            <NavLink
              to={`/orgs/${encodeURIComponent(o.name)}/audit-log`}
              className={(s) => `${navLinkClass(s)} pl-11 text-xs`}
            >
              Audit log
            </NavLink>
            <NavLink
              to={`/orgs/${encodeURIComponent(o.name)}/jobs`}
              className={(s) => `${navLinkClass(s)} pl-11 text-xs`}
            >
              Jobs
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
