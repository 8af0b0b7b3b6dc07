import { describe, expect, it } from 'vitest';
import { isWrite } from './register-routes.ts';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';

const sample: Record<string, string> = {
  name: 'acme',
  webhookId: 'e857a8431ff820c91a81398e',
  resourceGroupId: '1945c495ec9458913a736cea',
  action: 'enable',
  paperId: '2501.00001',
  namespace: 'alice',
  jobId: 'x',
  logId: 'x',
};
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_m, k: string) => sample[k] ?? 'x');

describe('every route of the table', () => {
  it('answers 401 without a token unless it is public, and 403 to a read token on writes, changing nothing', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    let checked = 0;
    for (const route of hub.routes) {
      const method = route.method.toUpperCase();
      const path = concrete(route.path);
      const anon = await call(hub, method, path, { token: null });
      if (route.auth === 'user' || route.auth === 'org') {
        expect(anon.status, `${method} ${route.path}`).toBe(401);
        expect(anon.headers.get('x-error-message')).toBeTruthy();
        checked++;
      }
      if (isWrite(route) && route.auth !== 'none') {
        const read = await call(hub, method, path, { token: TOKENS.aliceRead, body: {} });
        expect(read.status, `${method} ${route.path}`).toBe(403);
      }
    }
    expect(checked).toBeGreaterThan(25);
    expect(snapshot(hub)).toBe(before);
  });
});
