import { afterEach, describe, expect, it } from 'vitest';
import type { MockHub } from '../app.ts';
import { call, testHub } from '../test-support.ts';

const ORIGIN = { origin: 'http://console.example' };
const PREFLIGHT = { ...ORIGIN, 'access-control-request-method': 'PATCH' };
let hub: MockHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe('CORS of the mock hub', () => {
  it('by default allows any origin and answers preflights', async () => {
    hub = await testHub();
    const read = await call(hub, 'GET', '/api/whoami-v2', { headers: ORIGIN });
    expect(read.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await call(hub, 'OPTIONS', '/api/settings/notifications', { token: null, headers: PREFLIGHT });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('with cors: false (--no-cors) sends no CORS header and answers no preflight, and the rest stays', async () => {
    hub = await testHub({ cors: false });
    const read = await call(hub, 'GET', '/api/whoami-v2', { headers: ORIGIN });
    expect(read.status).toBe(200);
    expect([...read.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
    expect(read.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const preflight = await call(hub, 'OPTIONS', '/api/settings/notifications', { token: null, headers: PREFLIGHT });
    expect(preflight.status).not.toBe(204);
    expect([...preflight.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
  });
});
