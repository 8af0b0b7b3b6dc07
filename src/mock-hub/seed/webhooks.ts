import type { Job } from '../../hub/schemas/index.ts';
import { buildPayload } from '../delivery/build-payload.ts';
import { stableId24 } from '../delivery/ids.ts';
import { exposeUrl, sshUrl } from '../delivery/job-template.ts';
import type { StoredWebhook } from '../store/state-schema.ts';
import { seedTime, stableId } from './prng.ts';
import { findUser } from './users.ts';

export const SEED_WEBHOOK_IDS = {
  aliceUrl: stableId('webhook:alice:url'),
  aliceJob: stableId('webhook:alice:job'),
  aliceSuspended: stableId('webhook:alice:suspended'),
  bobUrl: stableId('webhook:bob:url'),
} as const;

export function seedWebhooks(): StoredWebhook[] {
  return [
    {
      owner: 'alice',
      webhook: {
        id: SEED_WEBHOOK_IDS.aliceUrl,
        url: 'https://example.test/hooks/alice',
        disabled: false,
        watched: [
          { type: 'user', name: 'alice', avatarUrl: 'https://cdn.example.test/avatars/alice.svg' },
          { type: 'model', name: 'acme/llama-vision-model' },
        ],
        secret: 'alice-webhook-secret',
        domains: ['repo', 'discussion'],
        lastTriggerAt: seedTime(3_600_000),
      },
    },
    {
      owner: 'alice',
      webhook: {
        id: SEED_WEBHOOK_IDS.aliceJob,
        job: {
          dockerImage: 'python:3.12',
          command: ['python', '-c', 'import os; print(os.environ["WEBHOOK_PAYLOAD"])'],
          environment: { LOG_LEVEL: 'info' },
          flavor: 'cpu-basic',
          timeoutSeconds: 600,
          labels: { team: 'ml' },
          secrets: ['HF_TOKEN'],
        },
        disabled: false,
        watched: [{ type: 'org', name: 'acme', avatarUrl: 'https://cdn.example.test/avatars/acme.svg' }],
        domains: ['repo'],
      },
      jobRequest: {
        dockerImage: 'python:3.12',
        command: ['python', '-c', 'import os; print(os.environ["WEBHOOK_PAYLOAD"])'],
        environment: { LOG_LEVEL: 'info' },
        secrets: { HF_TOKEN: 'seeded-secret-value' },
        flavor: 'cpu-basic',
        timeoutSeconds: 600,
        attempts: 2,
        labels: { team: 'ml' },
      },
    },
    {
      owner: 'alice',
      webhook: {
        id: SEED_WEBHOOK_IDS.aliceSuspended,
        url: 'https://example.test/hooks/flaky',
        disabled: 'suspended-after-failure',
        watched: [{ type: 'dataset', name: 'alice/eval-mix-dataset' }],
        domains: ['discussion'],
        lastTriggerAt: seedTime(86_400_000),
      },
    },
    {
      owner: 'bob',
      webhook: {
        id: SEED_WEBHOOK_IDS.bobUrl,
        url: 'https://example.test/hooks/bob',
        disabled: true,
        watched: [{ type: 'user', name: 'bob' }],
        domains: ['repo'],
      },
    },
  ];
}

export const SEED_JOB_IDS = {
  aliceCompleted: stableId('job:alice:1'),
  aliceRunning: stableId('job:alice:2'),
  aliceError: stableId('job:alice:3'),
  acme: stableId('job:acme:1'),
};

function principal(name: string) {
  const user = findUser(name);
  return { id: user?.id ?? stableId(`org:${name}`), name, type: user ? ('user' as const) : ('org' as const) };
}

/** The push to acme's model that started alice's job webhook (a v3 payload as the delivery engine builds it). */
function seedPayload(): string {
  const name = 'acme/llama-vision-model';
  const headSha = stableId('seed:push').padEnd(40, '0');
  const payload = buildPayload(
    { repo: { type: 'model', name }, scope: 'repo.content', action: 'update' },
    {
      id: stableId24(`repo:model/${name}`),
      private: false,
      ownerId: principal('acme').id,
      actorId: principal('alice').id,
      headSha,
      previousSha: stableId('seed:before').padEnd(40, '0'),
    },
    SEED_WEBHOOK_IDS.aliceJob,
    'http://127.0.0.1:4700',
  );
  return JSON.stringify(payload);
}

export function seedJobs(): Record<string, Job[]> {
  const base = {
    environment: { LOG_LEVEL: 'info' },
    dockerImage: 'python:3.12',
    command: ['python', 'train.py'],
    arch: 'amd64' as const,
  };
  const alice = principal('alice');
  const running = SEED_JOB_IDS.aliceRunning;
  return {
    alice: [
      {
        ...base,
        id: running,
        createdAt: seedTime(600_000),
        owner: alice,
        createdBy: alice,
        flavor: 'a10g-small',
        startedAt: seedTime(540_000),
        tags: ['webhook', 'team=research'],
        retry: 0,
        status: {
          stage: 'RUNNING',
          message: null,
          failureCount: 0,
          exposeUrls: [exposeUrl(running, 7860)],
          sshUrl: sshUrl(running),
        },
        volumes: [
          { type: 'dataset', source: 'alice/eval-mix-dataset', mountPath: '/data', revision: 'main', readOnly: true },
          { type: 'bucket', source: 'alice/checkpoints', mountPath: '/out', readOnly: false },
        ],
      },
      {
        id: SEED_JOB_IDS.aliceCompleted,
        createdAt: seedTime(7_200_000),
        owner: alice,
        createdBy: alice,
        flavor: 'cpu-basic',
        timeout: 600,
        dockerImage: 'python:3.12',
        command: ['python', '-c', 'import os; print(os.environ["WEBHOOK_PAYLOAD"])'],
        environment: { LOG_LEVEL: 'info', WEBHOOK_PAYLOAD: seedPayload() },
        secrets: { HF_TOKEN: null },
        tags: ['team=ml'],
        retry: 1,
        status: { stage: 'COMPLETED', message: null, failureCount: 1 },
        startedAt: seedTime(7_100_000),
        finishedAt: seedTime(6_900_000),
        durations: { schedulingSecs: 100, runningSecs: 200, totalSecs: 300 },
      },
      {
        ...base,
        id: SEED_JOB_IDS.aliceError,
        createdAt: seedTime(86_400_000),
        owner: alice,
        createdBy: alice,
        flavor: 't4-small',
        status: { stage: 'ERROR', message: 'exit code 1', failureCount: 1 },
        startedAt: seedTime(86_000_000),
        finishedAt: seedTime(85_000_000),
        retry: 0,
        tags: ['team=ml'],
      },
    ],
    acme: [
      {
        ...base,
        id: SEED_JOB_IDS.acme,
        createdAt: seedTime(3_600_000),
        owner: principal('acme'),
        createdBy: alice,
        flavor: 'h200',
        status: { stage: 'COMPLETED', message: null },
        volumes: [
          { type: 'model', source: 'acme/llama-vision-model', mountPath: '/data', readOnly: true, revision: 'main' },
        ],
      },
    ],
  };
}
