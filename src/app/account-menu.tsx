import type { UseQueryResult } from '@tanstack/react-query';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import type { Whoami } from '../hub/schemas/index.ts';

/** Who is signed in, with which token role; loading and failure stay small and retryable. */
export function AccountBadge({ me }: { me: UseQueryResult<Whoami> }) {
  if (me.isPending)
    return (
      <span className="h-6 w-32 animate-pulse rounded bg-subtle-strong" role="status" aria-label="Loading account" />
    );
  if (me.isError)
    return (
      <span className="flex items-center gap-2 text-danger" role="alert">
        Account unavailable
        <Button variant="ghost" onClick={() => void me.refetch()}>
          Retry
        </Button>
      </span>
    );
  const token = me.data.auth.accessToken;
  return (
    <span className="flex items-center gap-2" data-testid="whoami">
      <Avatar src={me.data.avatarUrl} name={me.data.name} />
      <span>
        <span className="font-medium">{me.data.fullname}</span> <span className="text-muted">@{me.data.name}</span>
      </span>
      {token && (
        <span
          className="rounded bg-subtle-strong px-1.5 text-xs"
          title={`Token "${token.displayName}"`}
          data-testid="token-role"
        >
          {token.role} token
        </span>
      )}
    </span>
  );
}
