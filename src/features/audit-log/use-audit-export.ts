import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSession } from '../../components/session/session-context.tsx';
import { hubKeys } from '../../hub/queries.ts';
import type { AuditLogEvent } from '../../hub/schemas/index.ts';
import { exportInWorker } from './export-in-worker.ts';

/**
 * The audit export (under `hubKeys.org(org).auditLog`), fetched and validated by the hub client
 * in a worker, plus the newest events as soon as they stream in (`preview`).
 */
export function useAuditExport(org: string, q: string, enabled: boolean) {
  const { session } = useSession();
  const [preview, setPreview] = useState<{ org: string; q: string; events: AuditLogEvent[] } | null>(null);
  const query = useQuery({
    queryKey: hubKeys.org(org).auditLog(q ? { q } : {}),
    queryFn: ({ signal }) =>
      exportInWorker(
        { baseUrl: session!.baseUrl, token: session!.token, org, q },
        { signal, onPreview: (events) => setPreview({ org, q, events }) },
      ),
    enabled,
    staleTime: 60_000,
  });
  const matches = preview && preview.org === org && preview.q === q;
  return { query, preview: matches && query.isPending && query.fetchStatus === 'fetching' ? preview.events : null };
}
