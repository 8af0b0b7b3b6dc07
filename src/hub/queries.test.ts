import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createHubClient } from './client.ts';
import { HubApiError, HubNetworkError, HubSchemaError, isEndpointNotExposed } from './errors.ts';
import { fakeFetch, json } from './fake-fetch.ts';
import { hubKeys, repositoryUsageQuery, shouldRetryHubError, webhookLogsQuery, webhooksQuery } from './queries.ts';

const apiError = (status: number) => new HubApiError({ status, message: 'x', method: 'GET', path: '/api/x' });

describe('hubKeys', () => {
  it('nests detail keys under their resource so prefix invalidation reaches them', () => {
    expect(hubKeys.webhooks.logs('w1').slice(0, hubKeys.webhooks.all.length)).toEqual([...hubKeys.webhooks.all]);
    expect(hubKeys.webhooks.logs('w1').slice(0, 4)).toEqual([...hubKeys.webhooks.detail('w1')]);
    expect(hubKeys.org('acme').auditLog({ q: 'ip:1' }).slice(0, 3)).toEqual([...hubKeys.org('acme').all]);
    expect(hubKeys.org('acme').all[0]).toBe(hubKeys.all[0]);
  });

  it('puts org repository listings under the org', () => {
    const client = createHubClient({ baseUrl: 'http://x', token: 't' });
    expect(repositoryUsageQuery(client, { org: 'acme', limit: 5 }).queryKey).toEqual([
      'hub',
      'org',
      'acme',
      'repositories',
      { limit: 5 },
    ]);
    expect(repositoryUsageQuery(client, { limit: 5 }).queryKey).toEqual(['hub', 'repositories', 'user', { limit: 5 }]);
  });
});

describe('query factories', () => {
  it('fetch through the client and invalidate by prefix', async () => {
    const f = fakeFetch(json([]));
    const client = createHubClient({ baseUrl: 'http://hub.test', token: 'hf_alice_write', fetch: f.fetch });
    const qc = new QueryClient();
    await qc.fetchQuery(webhooksQuery(client));
    await qc.fetchQuery(webhookLogsQuery(client, 'a'.repeat(24)));
    expect(f.calls.map((c) => c.url.pathname)).toEqual([
      '/api/settings/webhooks',
      `/api/settings/webhooks/${'a'.repeat(24)}/logs`,
    ]);
    await qc.invalidateQueries({ queryKey: hubKeys.webhooks.all });
    expect(qc.getQueryState(webhookLogsQuery(client, 'a'.repeat(24)).queryKey)?.isInvalidated).toBe(true);
  });
});

describe('reads only the mock hub has', () => {
  it('stop once the hub says it does not expose them: invalidation does not refetch, a full hub keeps refetching', async () => {
    for (const [reply, fetches] of [
      [json({ error: 'no route' }, 404), 1],
      [json([]), 2],
    ] as const) {
      const f = fakeFetch(reply);
      const client = createHubClient({ baseUrl: 'http://hub.test', token: 't', fetch: f.fetch, maxRetries: 0 });
      const qc = new QueryClient({ defaultOptions: { queries: { retry: shouldRetryHubError } } });
      const observer = new QueryObserver(qc, webhookLogsQuery(client, 'w1'));
      const unsubscribe = observer.subscribe(() => undefined);
      await expect.poll(() => observer.getCurrentResult().fetchStatus).toBe('idle');
      expect(isEndpointNotExposed(observer.getCurrentResult().error)).toBe(fetches === 1);
      await qc.invalidateQueries({ queryKey: hubKeys.webhooks.all });
      await expect.poll(() => observer.getCurrentResult().fetchStatus).toBe('idle');
      expect(f.calls).toHaveLength(fetches);
      unsubscribe();
    }
  });
});

describe('shouldRetryHubError', () => {
  it('never retries 4xx, schema or aborted failures', () => {
    expect(shouldRetryHubError(0, apiError(400))).toBe(false);
    expect(shouldRetryHubError(0, apiError(404))).toBe(false);
    expect(shouldRetryHubError(0, apiError(429))).toBe(false);
    expect(shouldRetryHubError(0, new HubSchemaError('GET /x', []))).toBe(false);
    expect(shouldRetryHubError(0, new HubNetworkError('GET /x', 'aborted', ''))).toBe(false);
  });

  it('retries 5xx and network failures a bounded number of times', () => {
    expect(shouldRetryHubError(0, apiError(503))).toBe(true);
    expect(shouldRetryHubError(1, new HubNetworkError('GET /x', 'network', ''))).toBe(true);
    expect(shouldRetryHubError(2, apiError(503))).toBe(false);
  });
});
