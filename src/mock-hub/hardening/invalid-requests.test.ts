// Property-based hardening: for every route of the mock hub's route table (so a new endpoint is
// covered without touching this file), requests made invalid from the route's own schemas get a
// 4xx JSON error with X-Error-Message and leave the state exactly as it was.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../app.ts';
import { isWrite } from '../http/register-routes.ts';
import type { AnyRoute } from '../http/route.ts';
import { TOKENS, snapshot, testHub } from '../test-support.ts';
import type { Kind } from './mutations.ts';
import { invalidRequests, routeInputs, urlOf, type InvalidRequest } from './route-inputs.ts';

const RUNS = 30;
const hub = await testHub();
const label = (r: AnyRoute) => `${r.method.toUpperCase()} ${r.path}`;

async function send(
  route: AnyRoute,
  req: { params: Record<string, string>; query: Record<string, string>; body: unknown; rawBody?: string },
  token: string | null = TOKENS.aliceWrite,
) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = req.rawBody;
  if (body === undefined && req.body !== undefined) body = JSON.stringify(req.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await hub.app.request(urlOf(route, req.params, req.query), {
    method: route.method.toUpperCase(),
    headers,
    body,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as { error?: unknown } | undefined };
}

/** The error contract: 4xx, JSON `{"error": "..."}`, the same message (Latin-1 safe) in X-Error-Message. */
function expectHubError(res: Awaited<ReturnType<typeof send>>, context: string) {
  expect(res.status, context).toBeGreaterThanOrEqual(400);
  expect(res.status, context).toBeLessThan(500);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
  expect(typeof res.json?.error, `${context}: ${res.text.slice(0, 200)}`).toBe('string');
  expect((res.json!.error as string).length, context).toBeGreaterThan(0);
  expect(res.headers.get('x-error-message'), context).toBeTruthy();
}

function expectUnchanged(before: { snap: string; version: number }, context: string) {
  expect(hub.store.version, context).toBe(before.version);
  expect(snapshot(hub) === before.snap, `${context}: the state changed`).toBe(true);
}

async function checkInvalid(route: AnyRoute, req: InvalidRequest) {
  const context = `${label(route)} ${req.part} ${req.what}`;
  const before = { snap: snapshot(hub), version: hub.store.version };
  const mutations: string[] = [];
  const stop = hub.events.onMutation((m) => mutations.push(m.route));
  const res = await send(route, req);
  stop();
  expectHubError(res, context);
  if (req.part === 'path') expect([400, 404], context).toContain(res.status);
  else {
    expect(res.status, `${context}: ${res.text.slice(0, 200)}`).toBe(400);
    // The message names where the problem is, and the top-level field when there is one.
    const error = res.json!.error as string;
    expect(error, context).toContain(`${req.part}`);
    const field = req.mutation?.path[0];
    if (typeof field === 'string' && field !== '') expect(error, context).toContain(field);
  }
  expect(mutations, context).toEqual([]);
  expectUnchanged(before, context);
}

const seenKinds = new Set<Kind | 'not-json' | 'huge-body'>();

describe('every mock-hub endpoint rejects invalid input and changes nothing', () => {
  it('the route table covers every operation of GET /openapi.json (repo file routes aside)', async () => {
    const res = await hub.app.request('/openapi.json');
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const table = new Set(hub.routes.map(label));
    const outside = documented.filter((op) => !table.has(op));
    expect(outside.every((op) => op.includes('/resolve/{revision}/'))).toBe(true);
    expect(hub.routes.length).toBeGreaterThanOrEqual(30);
  });

  for (const route of hub.routes) {
    it(`${label(route)}: generated invalid requests`, async () => {
      const bad = invalidRequests(routeInputs(route));
      expect(bad.length, 'every route rejects something (at least unknown query parameters)').toBeGreaterThan(0);
      // One request of each kind first, then random ones.
      const byKind = new Map<string, InvalidRequest>();
      for (const req of bad) {
        const kind = `${req.part}:${req.mutation?.kind ?? 'not-json'}`;
        if (!byKind.has(kind)) byKind.set(kind, req);
      }
      for (const req of byKind.values()) {
        seenKinds.add(req.mutation?.kind ?? 'not-json');
        await checkInvalid(route, req);
      }
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...bad), (req) => checkInvalid(route, req)),
        { numRuns: Math.min(RUNS, bad.length) },
      );
    });

    if (route.method !== 'get') {
      it(`${label(route)}: a body over 1 MB is a 413 and changes nothing`, async () => {
        const inputs = routeInputs(route);
        const base = inputs.body[0];
        const padded =
          base && typeof base === 'object' && !Array.isArray(base)
            ? { ...base, padding: 'x'.repeat(MAX_BODY_BYTES) }
            : { padding: 'x'.repeat(MAX_BODY_BYTES) };
        const before = { snap: snapshot(hub), version: hub.store.version };
        const res = await send(route, { params: inputs.params[0]!, query: inputs.query[0]!, body: padded });
        expectHubError(res, label(route));
        expect(res.status).toBe(413);
        expect(res.json!.error).toContain('1 MB');
        seenKinds.add('huge-body');
        expectUnchanged(before, label(route));
      });
    }

    if (route.params) {
      it(`${label(route)}: unknown ids in the path are a 404 and change nothing`, async () => {
        const inputs = routeInputs(route);
        const names = Object.keys(inputs.params[0]!);
        const unknownId = fc.stringMatching(/^[a-z0-9]{1,12}$/).map((s) => `unknown-${s}`);
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...inputs.params),
            fc.array(unknownId, { minLength: names.length, maxLength: names.length }),
            async (base, ids) => {
              // Enum segments (enable/disable) keep a valid value; every free-form id is unknown.
              const params = Object.fromEntries(
                names.map((n, i) => [
                  n,
                  route.params!.shape[n] && route.params!.safeParse({ ...base, [n]: ids[i] }).success
                    ? ids[i]!
                    : base[n]!,
                ]),
              );
              const before = { snap: snapshot(hub), version: hub.store.version };
              const res = await send(route, { params, query: inputs.query[0]!, body: inputs.body[0] });
              expectHubError(res, `${label(route)} ${JSON.stringify(params)}`);
              expect(res.status).toBe(404);
              expectUnchanged(before, label(route));
            },
          ),
          { numRuns: 5 },
        );
      });
    }

    if (route.auth === 'user' || route.auth === 'org') {
      it(`${label(route)}: no token, an unknown token${isWrite(route) ? ' and a read token' : ''} are refused`, async () => {
        const inputs = routeInputs(route);
        const req = { params: inputs.params[0]!, query: inputs.query[0]!, body: inputs.body[0] };
        const before = { snap: snapshot(hub), version: hub.store.version };
        for (const token of [null, 'hf_not_a_real_token', 'Bearer', `${TOKENS.aliceWrite}x`]) {
          const res = await send(route, req, token);
          expectHubError(res, `${label(route)} token ${token}`);
          expect(res.status).toBe(401);
        }
        if (isWrite(route)) {
          const res = await send(route, req, TOKENS.aliceRead);
          expectHubError(res, `${label(route)} read token`);
          expect(res.status).toBe(403);
        }
        expectUnchanged(before, label(route));
      });
    }
  }

  it('exercised every kind of invalid input the issue names', () => {
    for (const k of [
      'wrong-type',
      'missing-required',
      'unknown-field',
      'out-of-range',
      'bad-pattern',
      'bad-enum',
      'over-long',
      'too-short',
      'not-json',
      'huge-body',
    ] as const) {
      expect([...seenKinds], k).toContain(k);
    }
  });
});
