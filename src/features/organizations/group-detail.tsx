import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { resourceGroupQuery } from '../../hub/queries.ts';
import type { ResourceGroup } from '../../hub/schemas/index.ts';
import { GroupForm } from './group-form.tsx';
import { useDeleteResourceGroup, usePatchResourceGroup } from './use-resource-groups.ts';

function AutoJoin({ group }: { group: ResourceGroup }) {
  const a = group.autoJoin;
  if (!a || !a.enabled) return <p data-testid="auto-join">Auto-join: off. Members are added by hand.</p>;
  return (
    <p data-testid="auto-join">
      Auto-join: on. New organization members join as <strong>{a.role}</strong>
      {a.scope === 'read_plus' ? ' (members with read access or more)' : a.scope === 'all' ? ' (all members)' : ''}.
    </p>
  );
}

function Members({ group }: { group: ResourceGroup }) {
  if (group.users.length === 0) return <p className="text-sm text-muted">No users.</p>;
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Users</caption>
      <thead className="text-xs uppercase text-muted">
        <tr>
          <th scope="col" className="py-1">
            User
          </th>
          <th scope="col" className="py-1">
            Role
          </th>
          <th scope="col" className="py-1">
            Added by
          </th>
        </tr>
      </thead>
      <tbody>
        {group.users.map((u) => (
          <tr key={u._id} className="border-t border-border">
            <td className="py-1.5">
              <span className="font-medium">{u.name}</span> <span className="text-muted">{u.fullname}</span>
            </td>
            <td className="py-1.5">{u.role}</td>
            <td className="py-1.5">{u.addedBy ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Resources({ group }: { group: ResourceGroup }) {
  if (group.resources.length === 0) return <p className="text-sm text-muted">No resources.</p>;
  return (
    <ul className="space-y-1 text-sm">
      {group.resources.map((r) => (
        <li key={r.type === 'collection' ? r.id : `${r.type}:${r.name}`} className="flex gap-2">
          <span className="rounded bg-subtle-strong px-1.5 text-xs">{r.type}</span>
          <span>{r.type === 'collection' ? r.title : r.name}</span>
          {r.private && <span className="text-xs text-muted">private</span>}
        </li>
      ))}
    </ul>
  );
}

export function GroupDetail({
  org,
  id,
  canManage,
  onDeleted,
}: {
  org: string;
  id: string;
  canManage: boolean;
  onDeleted(): void;
}) {
  const client = useHubClient();
  const q = useQuery(resourceGroupQuery(client, org, id));
  const patch = usePatchResourceGroup(org, id);
  const remove = useDeleteResourceGroup(org, id);
  const [confirming, setConfirming] = useState(false);
  if (q.isPending) return <Skeleton rows={4} label="Loading resource group" />;
  if (q.isError)
    return <ErrorPanel error={q.error} title="Could not load this resource group" onRetry={() => void q.refetch()} />;
  const g = q.data;
  return (
    <section aria-labelledby="group-title" className="space-y-5" data-testid="group-detail">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h3 id="group-title" className="text-lg font-semibold break-words">
            {g.name}
          </h3>
          {g.description && <p className="text-sm text-muted break-words">{g.description}</p>}
        </div>
        {canManage && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete group
          </Button>
        )}
      </div>
      <div className="text-sm">
        <AutoJoin group={g} />
      </div>
      {canManage && (
        <GroupForm
          key={`${g.id}:${g.name}:${g.description ?? ''}`}
          mode="edit"
          initial={{ name: g.name, description: g.description ?? '' }}
          submitLabel="Save"
          onSubmit={(body) => patch.mutateAsync(body)}
        />
      )}
      <div>
        <h4 className="mb-1 font-medium">Users ({g.users.length})</h4>
        <Members group={g} />
      </div>
      <div>
        <h4 className="mb-1 font-medium">Resources ({g.resources.length})</h4>
        <Resources group={g} />
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${g.name}?`}
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              onDeleted();
            },
          })
        }
      >
        Its users lose the access it grants to {g.resources.length} resources.
        {remove.error && (
          <p role="alert" className="mt-2 text-danger">
            {remove.error.message}
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
