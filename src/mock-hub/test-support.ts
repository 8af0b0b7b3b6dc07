import { createMockHub, type MockHub, type MockHubOptions } from './app.ts';
import { TOKENS } from './seed/users.ts';

export { TOKENS };

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  json: unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke into bodies of many shapes
  body: any;
}

/** A fresh seeded hub per test (in memory unless dataDir is given). */
export function testHub(opts: MockHubOptions = {}): Promise<MockHub> {
  return createMockHub({ now: () => new Date('2026-11-02T00:00:00.000Z'), ...opts });
}

/** Calls the hub in-process, as alice (write) unless another token (or null) is given. */
export async function call(hub: MockHub, method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers };
  const token = opts.token === undefined ? TOKENS.aliceWrite : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await hub.app.request(path, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json, body: json };
}

/** A deep copy of the state, to show a rejected request changed nothing. */
export function snapshot(hub: MockHub): string {
  return JSON.stringify(hub.store.state);
}
