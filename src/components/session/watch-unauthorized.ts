import type { QueryClient } from '@tanstack/react-query';
import { isUnauthorized } from '../ui/describe-error.ts';

/**
 * Calls `onUnauthorized` when a query or a mutation of `client` fails with 401 (after its
 * retries): the token is gone or revoked. Returns the unsubscribe function.
 */
export function watchUnauthorized(client: QueryClient, onUnauthorized: () => void): () => void {
  const check = (error: unknown) => {
    if (isUnauthorized(error)) onUnauthorized();
  };
  const queries = client.getQueryCache().subscribe((e) => {
    if (e.type === 'updated' && e.action.type === 'error') check(e.action.error);
  });
  const mutations = client.getMutationCache().subscribe((e) => {
    if (e.type === 'updated' && e.action.type === 'error') check(e.action.error);
  });
  return () => {
    queries();
    mutations();
  };
}
