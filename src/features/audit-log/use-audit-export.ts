import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSession } from '../../components/session/session-context.tsx';
import { createHubClient } from '../../hub/client.ts';
import { auditLogQuery } from '../../hub/queries.ts';
import type { AuditLogEvent } from '../../hub/schemas/index.ts';
import { previewingFetch } from './previewing-fetch.ts';

/**
 * The audit export through the hub client, plus the newest events as soon as they stream in
 * (`preview`), while the whole export is still being parsed and validated.
 */
export function useAuditExport(org: string, q: string, enabled: boolean) {
  const { session } = useSession();
  const [preview, setPreview] = useState<{ url: string; events: AuditLogEvent[] } | null>(null);
  const client = useMemo(
    () => createHubClient({ baseUrl: session!.baseUrl, token: session!.token, fetch: previewingFetch((url, events) => setPreview({ url, events })) }),
    [session],
  );
  const query = useQuery({ ...auditLogQuery(client, org, q ? { q } : {}), enabled, staleTime: 60_000 });
  const forThisQuery = preview && previewMatches(preview.url, org, q) ? preview.events : null;
  return { query, preview: query.isPending && query.fetchStatus === 'fetching' ? forThisQuery : null };
}

function previewMatches(url: string, org: string, q: string): boolean {
  const u = new URL(url, location.href);
  return u.pathname.endsWith(`/organizations/${encodeURIComponent(org)}/audit-log/export`) && (u.searchParams.get('q') ?? '') === q;
}
