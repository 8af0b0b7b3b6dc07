import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createHubClient } from './client.ts';
import { HubSchemaError } from './errors.ts';
import { fakeFetch, json } from './fake-fetch.ts';
import * as s from './schemas/index.ts';
import { isUnreadable, readItem, splitReadable, tolerantResponse } from './tolerant-response.ts';
import { RECORDED_UV_JOB } from '../test-support/real-hub-answers.ts';

const read = <S extends z.ZodType>(schema: S, v: unknown) => tolerantResponse(schema).safeParse(v);

const job = {
  id: 'j1',
  createdAt: '2026-11-01T12:00:00Z',
  owner: { id: 'o', name: 'alice' },
  createdBy: { id: 'o', name: 'alice' },
  environment: {},
  flavor: 'cpu-basic',
  status: { stage: 'RUNNING', message: null },
};

describe('the tolerant reader', () => {
  it('reads the recorded real-hub job: secrets as the names, null as absent; the contract still refuses it', () => {
    const got = read(s.Job, RECORDED_UV_JOB);
    expect(got.success).toBe(true);
    expect(got.data?.secrets).toEqual({ HF_TOKEN: null, UV_SCRIPT_HF_TOKEN: null });
    expect(got.data && ['spaceId', 'arch'].filter((k) => k in got.data)).toEqual([]);
    expect(s.Job.safeParse(RECORDED_UV_JOB).error?.issues.map((i) => i.path.join('.'))).toContain('secrets');
  });

  it('reads both recorded shapes of job secrets, and a webhook job’s secrets sent as a map', () => {
    expect(read(s.Job, { ...job, secrets: {} }).data?.secrets).toEqual({});
    expect(read(s.Job, { ...job, secrets: { A: 'x' } }).data?.secrets).toEqual({ A: null });
    const hook = { environment: {}, flavor: 'cpu-basic', timeoutSeconds: null, secrets: { HF_TOKEN: null } };
    expect(read(s.WebhookJob, hook).data?.secrets).toEqual(['HF_TOKEN']);
    // Names only: a list of anything else is still refused.
    expect(read(s.Job, { ...job, secrets: [1, 2] }).success).toBe(false);
  });

  it('keeps an enum value the spec does not list as the string it is, at any depth', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (v) => {
        const got = read(s.Job, { ...job, flavor: v, arch: v, status: { stage: v, message: null } }).data;
        expect([got?.flavor, got?.arch, got?.status.stage]).toEqual([v, v, v]);
        expect(s.isTerminalStage(got!.status.stage)).toBe(s.TERMINAL_JOB_STAGES.includes(v as s.JobStage));
        const hook = read(s.Webhook, {
          id: 'f'.repeat(24),
          disabled: v,
          watched: [{ name: 'a', type: v }],
          domains: [v],
        }).data;
        expect([hook?.disabled, hook?.watched[0]?.type, hook?.domains[0]]).toEqual([v, v, v]);
      }),
      { numRuns: 50 },
    );
  });

  it('reads null for every optional field of a job as absent, and a nullable field keeps its null', () => {
    const optional = Object.entries(s.Job.shape).filter(([, f]) => f.def.type === 'optional');
    expect(optional.length).toBeGreaterThan(10);
    for (const [key] of optional) {
      const got = read(s.Job, { ...job, [key]: null });
      expect(got.success, key).toBe(true);
      expect(Object.hasOwn(got.data!, key), key).toBe(false);
    }
    expect(read(s.Job, job).data?.status.message).toBeNull();
    expect(read(s.Job, { ...job, createdAt: null }).success).toBe(false);
  });

  it('reads numbers sent as numeric strings, and only those', () => {
    expect(read(s.Job, { ...job, timeout: '3600', retry: ' 2 ' }).data).toMatchObject({ timeout: 3600, retry: 2 });
    expect(read(s.Job, { ...job, timeout: 'an hour' }).success).toBe(false);
    expect(
      read(s.RepositoryUsage, {
        id: 'a/b',
        type: 'model',
        updatedAt: 'x',
        visibility: 'public',
        storage: '1e3',
        storagePercent: '0.5',
      }).data,
    ).toMatchObject({ storage: 1000, storagePercent: 0.5 });
  });

  it('reads date-times with another offset, without seconds or without an offset (UTC) as their UTC Z form', () => {
    const at = (createdAt: string) => read(s.Job, { ...job, createdAt }).data?.createdAt;
    expect(at('2026-11-01T13:30:00+01:30')).toBe('2026-11-01T12:00:00.000Z');
    expect(at('2026-11-01T12:00Z')).toBe('2026-11-01T12:00:00.000Z');
    expect(at('2026-11-01T12:00:00')).toBe('2026-11-01T12:00:00.000Z');
    // What the contract already reads is kept byte for byte.
    expect(at('2026-11-01T12:00:00Z')).toBe('2026-11-01T12:00:00Z');
    expect(read(s.Job, { ...job, createdAt: 'yesterday' }).success).toBe(false);
  });

  it('keeps an item it cannot read as unreadable, with why, the raw JSON and every field that did read', () => {
    const broken = { ...job, status: { stage: 'RUNNING' }, flavor: 7 };
    const item = readItem(s.Job, broken);
    expect(isUnreadable(item)).toBe(true);
    if (!isUnreadable(item)) return;
    expect(item.raw).toBe(broken);
    expect(item.issues.map((i) => i.path).sort()).toEqual(['flavor', 'status.message']);
    expect(Object.keys(item.fields).sort()).toEqual(['createdAt', 'createdBy', 'environment', 'id', 'owner']);
    expect(splitReadable([item, readItem(s.Job, job)])).toEqual({ items: [read(s.Job, job).data], unreadable: [item] });
  });
});

describe('the Jobs list of a namespace whose answer holds the recorded job', () => {
  it('lists every job, the recorded one with its secret names', async () => {
    const f = fakeFetch(
      json([job, RECORDED_UV_JOB, { ...job, id: 'j2', status: { stage: 'UPDATING', message: null } }]),
    );
    const jobs = await createHubClient({ baseUrl: 'https://hub.example', token: '', fetch: f.fetch }).listJobs('alice');
    expect(jobs.filter(isUnreadable)).toEqual([]);
    expect(jobs.map((j) => !isUnreadable(j) && [j.id, j.status.stage])).toEqual([
      ['j1', 'RUNNING'],
      [RECORDED_UV_JOB.id, 'COMPLETED'],
      ['j2', 'UPDATING'],
    ]);
  });

  it('a detail answer that cannot be read fails with the raw JSON and the fields that did read', async () => {
    const f = fakeFetch(json({ ...job, status: 'RUNNING' }));
    const client = createHubClient({ baseUrl: 'https://hub.example', token: '', fetch: f.fetch, maxRetries: 0 });
    const error = await client.getJob('alice', 'j1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubSchemaError);
    const { issues, answer } = error as HubSchemaError;
    expect(issues.map((i) => i.path)).toEqual(['status']);
    expect(answer?.raw).toEqual({ ...job, status: 'RUNNING' });
    expect(answer?.fields).toMatchObject({ id: 'j1', flavor: 'cpu-basic' });
  });
});
