import { describe, expect, it } from 'vitest';
import { MAX_JOB_PAGES, createHubClient } from './client.ts';
import { HubApiError, HubRequestError, HubSchemaError } from './errors.ts';
import { fakeFetch, json } from './fake-fetch.ts';
import type { JobLogEvent } from './schemas/index.ts';
import { allReadable } from './tolerant-response.ts';

const BASE = 'https://hub.example/prefix';
const c = (f: ReturnType<typeof fakeFetch>) =>
  createHubClient({ baseUrl: `${BASE}/`, token: 'hf_alice_read', fetch: f.fetch, maxRetries: 0 });
const job = (id: string) => ({
  id,
  createdAt: '2026-11-01T12:00:00Z',
  owner: { id: 'o', name: 'alice', type: 'user' },
  createdBy: { id: 'o', name: 'alice' },
  environment: {},
  flavor: 'cpu-basic',
  status: { stage: 'RUNNING', message: null },
});

/** A streamed answer whose body arrives in the given chunks. */
function chunked(chunks: string[], init: ResponseInit = {}) {
  const enc = new TextEncoder();
  let canceled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(enc.encode(next));
    },
    cancel() {
      canceled = true;
    },
  });
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' }, ...init }),
    canceled: () => canceled,
  };
}

async function collect(it: AsyncIterable<JobLogEvent>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of it) out.push(e.data);
  return out;
}

describe('listJobs', () => {
  it('sends stage and label filters as repeated parameters, as huggingface_hub list_jobs does', async () => {
    const f = fakeFetch(json([job('a')]));
    await expect(
      c(f).listJobs('alice', { stage: ['RUNNING', 'SCHEDULING'], label: ['team=ml'] }),
    ).resolves.toHaveLength(1);
    const url = f.calls[0]!.url;
    expect(url.pathname).toBe('/prefix/api/jobs/alice');
    expect([url.searchParams.getAll('stage'), url.searchParams.getAll('label')]).toEqual([
      ['RUNNING', 'SCHEDULING'],
      ['team=ml'],
    ]);
  });

  it('refuses a label filter that is not key=value before sending anything', async () => {
    const f = fakeFetch(json([]));
    await expect(c(f).listJobs('alice', { label: ['team'] })).rejects.toBeInstanceOf(HubRequestError);
    expect(f.calls).toHaveLength(0);
  });

  it('follows Link rel="next" pages on the same hub and stops at another origin', async () => {
    const f = fakeFetch(
      json([job('a')], 200, { Link: `<${BASE}/api/jobs/alice?cursor=2>; rel="next"` }),
      json([job('b')], 200, { Link: '</prefix/api/jobs/alice?cursor=3>; rel="next"' }),
      json([job('c')], 200, { Link: '<https://elsewhere.example/api/jobs/alice?cursor=4>; rel="next"' }),
      json([job('never')]),
    );
    expect(allReadable(await c(f).listJobs('alice')).map((j) => j.id)).toEqual(['a', 'b', 'c']);
    expect(f.calls.map((x) => x.url.search)).toEqual(['', '?cursor=2', '?cursor=3']);
    expect(f.calls.every((x) => x.url.origin === 'https://hub.example')).toBe(true);
  });

  it('reads at most MAX_JOB_PAGES pages of a hub that never stops', async () => {
    const f = fakeFetch(json([job('a')], 200, { Link: `<${BASE}/api/jobs/alice?more>; rel="next"` }));
    expect(allReadable(await c(f).listJobs('alice'))).toHaveLength(MAX_JOB_PAGES);
  });
});

describe('cancelJob', () => {
  it('POSTs to .../cancel and does not rely on the answer body', async () => {
    const f = fakeFetch(new Response('', { status: 200 }));
    await expect(c(f).cancelJob('acme', 'j1')).resolves.toBeUndefined();
    expect([f.calls[0]!.method, f.calls[0]!.url.pathname]).toEqual(['POST', '/prefix/api/jobs/acme/j1/cancel']);
  });
});

describe('streamJobLogs', () => {
  it('yields each event as it arrives, across chunk boundaries, skipping keep-alives', async () => {
    const s = chunked([
      'data: {"data":"one","timestamp":"t1"}\n\n: keep-',
      'alive\n\ndata: {"data":"t',
      'wo","timestamp":"t2"}\r\n\r\n',
      'data: {"data":"three","timestamp":"t3"}',
    ]);
    const f = fakeFetch(s.response);
    expect(await collect(c(f).streamJobLogs('alice', 'j1', { tail: 5 }))).toEqual(['one', 'two', 'three']);
    const call = f.calls[0]!;
    expect([call.url.pathname, call.url.search, call.headers.get('accept'), call.headers.get('authorization')]).toEqual(
      ['/prefix/api/jobs/alice/j1/logs', '?tail=5', 'text/event-stream', 'Bearer hf_alice_read'],
    );
  });

  it('closes the connection when the reader stops early', async () => {
    const s = chunked([
      'data: {"data":"one","timestamp":"t"}\n\n',
      'data: {"data":"two","timestamp":"t"}\n\n',
      'data: {"data":"three","timestamp":"t"}\n\n',
    ]);
    for await (const e of c(fakeFetch(() => s.response)).streamJobLogs('alice', 'j1')) {
      expect(e.data).toBe('one');
      break;
    }
    expect(s.canceled()).toBe(true);
  });

  it('turns a refused stream into HubApiError and a malformed event into HubSchemaError', async () => {
    const refused = fakeFetch(json({ error: 'job "j1" not found in "alice"' }, 404));
    const err = await collect(c(refused).streamJobLogs('alice', 'j1')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubApiError);
    expect((err as HubApiError).hubMessage).toBe('job "j1" not found in "alice"');
    for (const bad of ['data: not json\n\n', 'data: {"line":"x"}\n\n']) {
      await expect(collect(c(fakeFetch(chunked([bad]).response)).streamJobLogs('alice', 'j1'))).rejects.toBeInstanceOf(
        HubSchemaError,
      );
    }
  });
});
