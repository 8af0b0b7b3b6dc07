// Integration tests of the hub client: the real client against a fresh in-process mock hub.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createHubClient, type HubClient } from '../hub/client.ts';
import type { FetchLike } from '../hub/transport.ts';
import { HubApiError } from '../hub/errors.ts';
import { createMockHub, type MockHubOptions } from '../mock-hub/app.ts';

export { TOKENS } from '../mock-hub/seed/users.ts';

const BASE_URL = 'http://mock-hub.test';

export interface Harness {
  /** `through` wraps the client's fetch, e.g. to answer as a hub richer than the mock. */
  as(token: string, through?: (fetch: FetchLike) => FetchLike): HubClient;
  /** Bypasses the client, for requests it refuses to send. */
  raw(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** A fresh seeded mock hub per call (`{ specOnly: true }`: as the real hub); clients talk to it through `app.request`, no sockets. */
export async function startMockHub(opts: MockHubOptions = {}): Promise<Harness> {
  const { app, close } = await createMockHub(opts);
  const fetch: FetchLike = (url, init) => Promise.resolve(app.request(url, init));
  return {
    as: (token, through = (f) => f) =>
      createHubClient({ baseUrl: BASE_URL, token, fetch: through(fetch), maxRetries: 0 }),
    raw: async (path, { token, ...init } = {}) => {
      const headers = new Headers(init.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      if (init.body !== undefined) headers.set('Content-Type', 'application/json');
      return app.request(`${BASE_URL}${path}`, { ...init, headers });
    },
    close,
  };
}

/**
 * Starts a fresh mock hub before each test of the enclosing block (`once: true`: one for all of
 * them, for tests that only read) and closes it after. The harness it returns always talks to the
 * current hub.
 */
export function withMockHub({ once = false, ...opts }: MockHubOptions & { once?: boolean } = {}): Harness {
  let current: Harness | undefined;
  (once ? beforeAll : beforeEach)(async () => {
    current = await startMockHub(opts);
  });
  (once ? afterAll : afterEach)(() => current?.close());
  const hub = () => {
    if (!current) throw new Error('the mock hub runs inside tests only');
    return current;
  };
  return { as: (...args) => hub().as(...args), raw: (...args) => hub().raw(...args), close: () => hub().close() };
}

/** Resolves to the HubApiError a call fails with (fails the test when it succeeds). */
export async function apiError(p: Promise<unknown>): Promise<HubApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof HubApiError) return e;
    throw e;
  }
  throw new Error('expected the hub to refuse the call');
}

/** Polls until `probe` returns a value (deliveries run in the background). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
