import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { describeError, isForbidden } from '../../components/ui/describe-error.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { NotExposedNote } from '../../components/ui/not-exposed-note.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { UnreadableItems } from '../../components/ui/unreadable.tsx';
import { isEndpointNotExposed } from '../../hub/errors.ts';
import { resourceGroupsQuery, whileExposed } from '../../hub/queries.ts';
import type { WhoamiOrg } from '../../hub/schemas/index.ts';
import { splitReadable } from '../../hub/tolerant-response.ts';
import { GatePanel } from './gate-panel.tsx';
import { GroupDetail } from './group-detail.tsx';
import { GroupForm } from './group-form.tsx';
import { OpenGroupForm } from './open-group-form.tsx';
import { manageGroupsGate, resourceGroupsGate } from './plan-rules.ts';
import { useCreateResourceGroup } from './use-resource-groups.ts';

export function ResourceGroupsSection({ org, info }: { org: string; info: WhoamiOrg | undefined }) {
  const client = useHubClient();
  const gate = resourceGroupsGate(org, info);
  const manage = manageGroupsGate(org, info);
  const q = useQuery({ ...resourceGroupsQuery(client, org), enabled: (query) => gate.allowed && whileExposed(query) });
  const groups = splitReadable(q.data);
  // The open group is in the address (/orgs/:org/resource-groups/:groupId), as on the hub.
  const selected = useParams().groupId ?? null;
  const navigate = useNavigate();
  const orgPath = `/orgs/${encodeURIComponent(org)}`;
  const select = (id: string | null) => navigate(id ? `${orgPath}/resource-groups/${encodeURIComponent(id)}` : orgPath);
  const pane = selected ? (
    <GroupDetail key={selected} org={org} id={selected} canManage={manage.allowed} onDeleted={() => select(null)} />
  ) : (
    <p className="text-sm text-muted">Select a group to see its users, roles and resources.</p>
  );
  const create = useCreateResourceGroup(org);
  const [creating, setCreating] = useState(false);

  let body;
  if (!gate.allowed) body = <GatePanel title="Resource groups are not available">{gate.reason}</GatePanel>;
  else if (q.isPending) body = <Skeleton rows={3} label="Loading resource groups" />;
  else if (isEndpointNotExposed(q.error))
    body = (
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <div>
          <NotExposedNote error={q.error}>open a group by its id.</NotExposedNote>
          <OpenGroupForm key={selected} current={selected} onOpen={select} />
        </div>
        <div className="min-w-0">
          {selected ? pane : <p className="text-sm text-muted">Open a group to see, rename or delete it.</p>}
        </div>
      </div>
    );
  else if (q.isError && isForbidden(q.error))
    body = (
      <GatePanel title="Resource groups are not available">
        Resource groups need the Team plan or higher, and a role that can see them. The hub said:{' '}
        {describeError(q.error).message}
      </GatePanel>
    );
  else if (q.isError)
    body = <ErrorPanel error={q.error} title="Could not load resource groups" onRetry={() => void q.refetch()} />;
  else
    body = (
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <div className="space-y-3">
          {q.data.length === 0 && <EmptyState title="No resource groups" />}
          <UnreadableItems items={groups.unreadable} what="resource group" />
          <ul className="space-y-1" aria-label="Resource groups">
            {groups.items.map((g) => (
              <li key={g.id}>
                <button
                  type="button"
                  aria-current={selected === g.id ? 'true' : undefined}
                  onClick={() => select(g.id)}
                  className={`w-full rounded-md px-3 py-2 text-left text-sm ${selected === g.id ? 'bg-accent-soft font-medium text-accent-strong' : 'hover:bg-subtle'}`}
                >
                  <span className="block truncate">{g.name}</span>
                  <span className="text-xs text-muted">
                    {g.users.length} users · {g.resources.length} resources
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {!manage.allowed ? (
            <p className="text-xs text-muted" data-testid="manage-gate">
              {manage.reason}
            </p>
          ) : creating ? (
            <div className="rounded-md border border-border p-3">
              <GroupForm
                mode="create"
                initial={{ name: '', description: '' }}
                submitLabel="Create group"
                onSubmit={async (b) => {
                  const g = await create.mutateAsync({
                    name: b.name ?? '',
                    ...(b.description ? { description: b.description } : {}),
                  });
                  select(g.id);
                }}
                onDone={() => setCreating(false)}
              />
              <Button variant="ghost" className="mt-2" onClick={() => setCreating(false)}>
                Cancel
              </Button>
            </div>
          ) : (
            <Button onClick={() => setCreating(true)}>New resource group</Button>
          )}
        </div>
        <div className="min-w-0">{pane}</div>
      </div>
    );
  return (
    <section aria-labelledby="rg-title" className="space-y-3">
      <h2 id="rg-title" className="text-lg font-semibold">
        Resource groups
      </h2>
      {body}
    </section>
  );
}
