import { useQuery } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { isEndpointNotExposed } from '../../hub/errors.ts';
import { webhookLogsQuery } from '../../hub/queries.ts';

/**
 * A webhook's delivery log. `notExposed` is set when the hub has no log endpoint (the real hub's
 * API has only the replay): the page then offers replay by log id, and hides what needs the log.
 */
export function useDeliveryLog(webhookId: string) {
  const client = useHubClient();
  const query = useQuery(webhookLogsQuery(client, webhookId));
  return { query, notExposed: isEndpointNotExposed(query.error) ? query.error : null };
}
