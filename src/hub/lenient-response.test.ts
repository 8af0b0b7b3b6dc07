import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyMutation,
  describeMutation,
  mutationsOf,
  toJsonSchema,
  validSamples,
} from '../test-support/schema-values.ts';
import { HubSchemaError, formatIssuePath } from './errors.ts';
import { lenientResponse } from './lenient-response.ts';
import * as s from './schemas/index.ts';
import { toIssues } from './transport.ts';

/** Every schema the client reads an answer or a streamed event with (client.ts, the audit log's preview). */
const RESPONSES: Record<string, z.ZodType> = {
  Whoami: s.Whoami,
  NotificationList: s.NotificationList,
  'a body the spec leaves not shown': s.AnyObject,
  NotificationSettings: s.NotificationSettings,
  WatchList: s.WatchList,
  McpSettings: s.McpSettings,
  Paper: s.Paper,
  PaperClaimResult: s.PaperClaimResult,
  RepositoryUsageList: s.RepositoryUsageList,
  WebhookList: s.WebhookList,
  WebhookEnvelope: s.WebhookEnvelope,
  WebhookLogList: s.WebhookLogList,
  WebhookDelivery: s.WebhookDelivery,
  ReplayResult: s.ReplayResult,
  TestEventResult: s.TestEventResult,
  AuditLogExport: s.AuditLogExport,
  AuditLogEvent: s.AuditLogEvent,
  ResourceGroupList: s.ResourceGroupList,
  ResourceGroup: s.ResourceGroup,
  DeleteSuccess: s.DeleteSuccess,
  'Job[]': z.array(s.Job),
  Job: s.Job,
  JobLogEvent: s.JobLogEvent,
};

type Path = (string | number)[];

/** JSON as it crosses the wire (no -0, no undefined). */
const wire = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** Reads `body` with `lenientResponse` as the transport read 2xx answers before the tolerant reader: the data, or the error. */
async function read(schema: z.ZodType, body: unknown): Promise<{ data: unknown } | { error: unknown }> {
  const result = lenientResponse(schema).safeParse(body);
  return result.success ? { data: result.data } : { error: new HubSchemaError('GET /x', toIssues(result.error)) };
}

/** Paths of every object in `v`, the root included. */
function objectPaths(v: unknown, path: Path = []): Path[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => objectPaths(x, [...path, i]));
  if (v && typeof v === 'object') return [path, ...Object.entries(v).flatMap(([k, x]) => objectPaths(x, [...path, k]))];
  return [];
}

/** Refused only because of keys no schema option defines (a union lists each option's issues). */
function onlyUnknownKeys(issues: readonly z.core.$ZodIssue[]): boolean {
  return issues.every(
    (i) => i.code === 'unrecognized_keys' || (i.code === 'invalid_union' && i.errors.some(onlyUnknownKeys)),
  );
}

const within = (outer: string, inner: string) =>
  outer === '' || inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
const onOneBranch = (a: string, b: string) => within(a, b) || within(b, a);

const samplesOf = (schema: z.ZodType) => validSamples(schema, toJsonSchema(schema), 5).map(wire);

/** Keys the real hub sends or might: `labels`/`initiator` on a Job, and `labels` is also a webhook job's own field. */
const EXTRA_KEY = fc.constantFrom('labels', 'initiator', 'updatedBy', 'x-hub-2027');

describe.each(Object.entries(RESPONSES))('reading %s from the hub', (_name, schema) => {
  const samples = samplesOf(schema);
  const hasStrictObjects = JSON.stringify(toJsonSchema(schema)).includes('"additionalProperties":false');

  it('has values to check', () => {
    expect(samples.length).toBeGreaterThan(0);
  });

  it('an unknown key at any object depth is dropped; the data is what the key-less answer gives', async () => {
    const seen = { dropped: 0, keptByContract: 0, defined: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...samples),
        fc.nat(),
        EXTRA_KEY,
        fc.jsonValue({ maxDepth: 2 }),
        async (base, pick, key, value) => {
          const spots = objectPaths(base);
          fc.pre(spots.length > 0);
          const at = spots[pick % spots.length]!;
          const richer = wire(applyMutation(base, { kind: 'unknown-field', path: [...at, key], value }));
          const contract = schema.safeParse(richer);
          const got = await read(schema, richer);
          if (contract.success) {
            // A loose or stripping object (or a map) the contract already reads it with: nothing changes.
            seen.keptByContract++;
            expect(got).toEqual({ data: contract.data });
          } else if (onlyUnknownKeys(contract.error.issues)) {
            seen.dropped++;
            expect(got).toEqual({ data: schema.parse(base) });
          } else {
            // The key is one the schema defines there (or a map entry of the wrong type): still refused.
            seen.defined++;
            expect('error' in got && got.error).toBeInstanceOf(HubSchemaError);
          }
        },
      ),
      { numRuns: 80 },
    );
    if (hasStrictObjects) expect(seen.dropped).toBeGreaterThan(0);
    else expect(seen.keptByContract).toBeGreaterThan(0);
  });

  it('a wrong type, enum, pattern or missing key at a defined spot fails as the contract does, naming the path', async () => {
    // Single-spot breakages the contract refuses for a reason other than an unknown key (a key only
    // another union option defines is one; a union that takes the replacement refuses nothing).
    const broken = samples.flatMap((base) =>
      mutationsOf(base, toJsonSchema(schema))
        .filter((m) => m.kind !== 'unknown-field')
        .map((m) => ({ m, body: wire(applyMutation(base, m)) }))
        .filter(({ body }) => {
          const contract = schema.safeParse(body);
          return !contract.success && !onlyUnknownKeys(contract.error.issues);
        }),
    );
    expect(broken.length).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...broken), async ({ m, body }) => {
        const got = await read(schema, body);
        const error = 'error' in got ? got.error : undefined;
        expect(error, describeMutation(m)).toBeInstanceOf(HubSchemaError);
        const issues = (error as HubSchemaError).issues;
        const refused = schema.safeParse(body).error!.issues.filter((i) => i.code !== 'unrecognized_keys');
        expect(issues, describeMutation(m)).toEqual(
          refused.map((i) => ({ path: formatIssuePath(i.path), message: i.message })),
        );
        // The error names the broken spot, a union around it, or a key inside what replaced it.
        const spot = formatIssuePath(m.path);
        expect(
          issues.some((i) => onOneBranch(spot, i.path)),
          `${describeMutation(m)}: ${JSON.stringify(issues)}`,
        ).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('lenientResponse', () => {
  const job = {
    id: 'j1',
    createdAt: '2026-11-01T12:00:00Z',
    owner: { id: 'o', name: 'alice', type: 'user' },
    createdBy: { id: 'o', name: 'alice' },
    environment: {},
    flavor: 'cpu-basic',
    status: { stage: 'RUNNING', message: null },
  };
  // huggingface_hub's JobInfo reads both (src/huggingface_hub/_jobs_api.py, JobInfo.__init__).
  const realHubJob = { ...job, labels: { team: 'ml' }, initiator: { type: 'user', id: 'o', name: 'alice' } };

  it('reads the real hub’s Job as the spec’s; the contract itself still refuses the extra keys', async () => {
    expect(await read(s.Job, realHubJob)).toEqual({ data: job });
    expect(s.Job.safeParse(realHubJob).success).toBe(false);
  });

  it('keeps what loose objects keep', async () => {
    const me = {
      type: 'user',
      id: 'u',
      name: 'alice',
      fullname: 'Alice',
      avatarUrl: '/a.png',
      orgs: [],
      auth: { type: 'access_token' },
      canPay: true,
    };
    expect(await read(s.Whoami, me)).toEqual({ data: me });
  });

  it('is derived once per schema, and the schema is left as it was', () => {
    expect(lenientResponse(s.Job)).toBe(lenientResponse(s.Job));
    expect(lenientResponse(s.Job)).not.toBe(s.Job);
    expect(s.Job.safeParse({ ...job, extra: 1 }).success).toBe(false);
  });

  it('goes through lazy, intersection, tuple and record schemas too', () => {
    const Tree: z.ZodType<{ n: number; kids: unknown[] }> = z.lazy(() =>
      z.strictObject({ n: z.number(), kids: z.array(Tree) }),
    );
    const Both = z.intersection(z.strictObject({ a: z.number() }), z.object({ b: z.string() }));
    const Pair = z.tuple([z.strictObject({ a: z.number() })], z.strictObject({ r: z.boolean() }));
    const Map = z.record(z.string(), z.strictObject({ v: z.number() }).nullable().default(null));
    expect(lenientResponse(Tree).parse({ n: 1, x: 0, kids: [{ n: 2, kids: [], y: 0 }] })).toEqual({
      n: 1,
      kids: [{ n: 2, kids: [] }],
    });
    expect(lenientResponse(Both).parse({ a: 1, b: 'b', c: 0 })).toEqual({ a: 1, b: 'b' });
    expect(
      lenientResponse(Pair).parse([
        { a: 1, x: 0 },
        { r: true, y: 0 },
      ]),
    ).toEqual([{ a: 1 }, { r: true }]);
    expect(lenientResponse(Map).parse({ k: { v: 1, w: 2 }, n: null })).toEqual({ k: { v: 1 }, n: null });
    expect(lenientResponse(Tree).safeParse({ n: 1, kids: [{ n: 'two', kids: [] }] }).error?.issues[0]?.path).toEqual([
      'kids',
      0,
      'n',
    ]);
  });
});
