// Pins the job responses to what huggingface_hub parses (src/huggingface_hub/hf_api.py and
// _jobs_api.py at ee0a4510): the readers below do what its code does, key for key, so a response
// shape that would break `list_jobs`, `inspect_job`, `cancel_job` or `fetch_job_logs` fails here.
import { afterEach, describe, expect, it } from 'vitest';
import type { MockHub } from '../app.ts';
import { attachDeliveries } from '../delivery/registry.ts';
import { SEED_JOB_IDS } from '../seed/webhooks.ts';
import { TOKENS, testHub } from '../test-support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Python dict access, on purpose
type Dict = Record<string, any>;

/** Python's `d[key]`: a missing key is a KeyError. */
function item(d: Dict, key: string) {
  if (!(key in d)) throw new Error(`KeyError: '${key}'`);
  return d[key];
}

/** JobInfo.__init__: `id`, `owner["id"|"name"|"type"]` and `status["stage"]` are read with []. */
function jobInfo(d: Dict) {
  const owner = d.owner ?? {};
  const status = d.status ?? {};
  return {
    id: item(d, 'id') as string,
    createdAt: d.createdAt ?? null,
    owner: { id: item(owner, 'id'), name: item(owner, 'name'), type: item(owner, 'type') as string },
    status: {
      stage: item(status, 'stage') as string,
      message: status.message ?? null,
      exposeUrls: status.exposeUrls ?? null,
      sshUrl: status.sshUrl ?? null,
    },
    volumes: ((d.volumes as Dict[] | undefined) ?? []).map((v) => ({
      type: v.type ?? 'model',
      source: item(v, 'source'),
      mountPath: v.mountPath ?? item(v, 'mount_path'),
    })),
    durations: d.durations ?? null,
    url: `/jobs/${item(owner, 'name')}/${item(d, 'id')}`,
  };
}

/** `_stream_sse_events`: every line starting with `data: {` is one event, parsed as JSON; `fetch_job_logs` yields `event["data"]` minus the banner. */
function fetchJobLogs(body: string): string[] {
  return body
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data: {'))
    .map((line) => item(JSON.parse(line.slice('data: '.length)) as Dict, 'data') as string)
    .filter((data) => !data.startsWith('===== Job started'));
}

let hub: MockHub | undefined;
afterEach(async () => {
  attachDeliveries(hub!.context).close();
  await hub!.close();
});

const get = (path: string, init: RequestInit = {}) =>
  hub!.app.request(path, { ...init, headers: { authorization: `Bearer ${TOKENS.aliceWrite}` } });

describe('huggingface_hub against the mock hub', () => {
  it('list_jobs: GET /api/jobs/{ns} with repeated stage and label=key=value; every item makes a JobInfo', async () => {
    hub = await testHub();
    const res = await get('/api/jobs/alice?stage=COMPLETED&stage=ERROR&label=team%3Dml');
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBeNull(); // one page: `paginate` stops
    const infos = ((await res.json()) as Dict[]).map(jobInfo);
    expect(infos.map((j) => [j.id, j.status.stage, j.owner.type])).toEqual([
      [SEED_JOB_IDS.aliceCompleted, 'COMPLETED', 'user'],
      [SEED_JOB_IDS.aliceError, 'ERROR', 'user'],
    ]);
    const org = ((await (await get('/api/jobs/acme')).json()) as Dict[]).map(jobInfo);
    expect(org[0]!.owner).toMatchObject({ name: 'acme', type: 'org' });
  });

  it('inspect_job: GET /api/jobs/{ns}/{id} gives JobInfo with expose URLs, SSH URL and volumes', async () => {
    hub = await testHub();
    const info = jobInfo((await (await get(`/api/jobs/alice/${SEED_JOB_IDS.aliceRunning}`)).json()) as Dict);
    expect(info.status.stage).toBe('RUNNING');
    expect(info.status.exposeUrls).toEqual([`https://${info.id}--7860.jobs.mock-hub.test`]);
    // `hf jobs ssh` splits it with urlsplit: username = job id, hostname = SSH host.
    const ssh = new URL(info.status.sshUrl!);
    expect([ssh.protocol, ssh.username, ssh.hostname]).toEqual(['ssh:', info.id, 'ssh.mock-hub.test']);
    expect(info.volumes.map((v) => v.mountPath)).toEqual(['/data', '/out']);
  });

  it('cancel_job: POST /api/jobs/{ns}/{id}/cancel with no body is a 2xx; wait_for_job then sees a terminal stage', async () => {
    hub = await testHub();
    const res = await get(`/api/jobs/alice/${SEED_JOB_IDS.aliceRunning}/cancel`, { method: 'POST' });
    expect(res.ok).toBe(true);
    const after = jobInfo((await (await get(`/api/jobs/alice/${SEED_JOB_IDS.aliceRunning}`)).json()) as Dict);
    expect(['COMPLETED', 'CANCELED', 'ERROR', 'DELETED']).toContain(after.status.stage);
  });

  it('fetch_job_logs: GET .../logs is a stream of `data: {"data", "timestamp"}` lines that ends for a finished job', async () => {
    hub = await testHub();
    const res = await get(`/api/jobs/alice/${SEED_JOB_IDS.aliceCompleted}/logs?tail=10`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await res.text(); // resolves only because the stream ends
    expect(
      body
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .every((l) => l.startsWith('data: {')),
    ).toBe(true);
    expect(body).toMatch(/^data: \{"data":"===== Job started at /);
    expect(fetchJobLogs(body)).toEqual([
      'Running python:3.12 $ python -c import os; print(os.environ["WEBHOOK_PAYLOAD"])',
      'Process exited with code 0',
    ]);
  });
});
