import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { HubApiError } from '../../hub/errors.ts';
import { watchUnauthorized } from './watch-unauthorized.ts';

const hubError = (status: number) =>
  new HubApiError({ status, method: 'GET', path: '/api/notifications', message: 'nope' });

async function failures(fail: (client: QueryClient) => Promise<unknown>): Promise<number> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  let calls = 0;
  const stop = watchUnauthorized(client, () => calls++);
  await fail(client).catch(() => undefined);
  stop();
  await fail(client).catch(() => undefined);
  return calls;
}

describe('watchUnauthorized', () => {
  it('reports a 401 of a query or a mutation once each, and stops when unsubscribed', async () => {
    expect(
      await failures((c) =>
        c.fetchQuery({ queryKey: ['q', Math.random()], queryFn: () => Promise.reject(hubError(401)) }),
      ),
    ).toBe(1);
    expect(
      await failures((c) =>
        c
          .getMutationCache()
          .build(c, { mutationFn: () => Promise.reject(hubError(401)) })
          .execute(undefined),
      ),
    ).toBe(1);
  });

  it('ignores other failures (403, 500, network)', async () => {
    for (const error of [hubError(403), hubError(500), new TypeError('fetch failed')]) {
      expect(
        await failures((c) => c.fetchQuery({ queryKey: ['q', Math.random()], queryFn: () => Promise.reject(error) })),
      ).toBe(0);
    }
  });
});
