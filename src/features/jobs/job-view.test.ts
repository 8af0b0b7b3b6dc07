import { describe, expect, it } from 'vitest';
import { Job } from '../../hub/schemas/index.ts';
import { jobTimeline } from './job-timeline.ts';
import { elapsedSecs, formatDuration, runsWhat, shellLine, splitTags, sshCommand, webhookPayload } from './job-view.ts';

const base = Job.parse({
  id: 'j1',
  createdAt: '2026-11-01T12:00:00Z',
  owner: { id: 'o', name: 'alice', type: 'user' },
  createdBy: { id: 'o', name: 'alice' },
  dockerImage: 'python:3.12',
  environment: {},
  flavor: 'cpu-basic',
  status: { stage: 'SCHEDULING', message: null },
});
const now = Date.parse('2026-11-01T12:01:30Z');

describe('job view helpers', () => {
  it('reads key=value tags as labels and keeps other tags', () => {
    expect(splitTags(['team=ml', 'webhook', 'empty=', 'a=b=c', '=x'])).toEqual({
      labels: [
        ['team', 'ml'],
        ['empty', ''],
        ['a', 'b=c'],
      ],
      plain: ['webhook', '=x'],
    });
    expect(splitTags(undefined)).toEqual({ labels: [], plain: [] });
  });

  it('names the image or the Space', () => {
    expect(runsWhat(base)).toEqual({ kind: 'image', name: 'python:3.12' });
    expect(runsWhat({ spaceId: 'alice/app' })).toEqual({ kind: 'space', name: 'alice/app' });
    expect(runsWhat({})).toBeNull();
  });

  it('counts a live job from its creation, and takes the hub’s total for an ended one', () => {
    expect(elapsedSecs(base, now)).toBe(90);
    const done = {
      ...base,
      finishedAt: '2026-11-01T12:00:10Z',
      durations: { totalSecs: 9.5 },
      status: { stage: 'COMPLETED' as const, message: null },
    };
    expect(elapsedSecs(done, now)).toBe(9.5);
    expect(elapsedSecs({ ...done, durations: undefined }, now)).toBe(10);
    expect(elapsedSecs({ ...base, status: { stage: 'DELETED', message: null } }, now)).toBeNull();
  });

  it('formats durations for people', () => {
    expect([0.43, 5, 59.6, 61, 3_725, null].map(formatDuration)).toEqual([
      '0.4 s',
      '5 s',
      '1 min 0 s',
      '1 min 1 s',
      '1 h 2 min',
      '—',
    ]);
  });

  it('builds the ssh command from the SSH URL, with a port when there is one', () => {
    expect(sshCommand('ssh://j1@ssh.hf.jobs')).toBe('ssh j1@ssh.hf.jobs');
    expect(sshCommand('ssh://j1@ssh.example:2222')).toBe('ssh j1@ssh.example -p 2222');
    expect(sshCommand('https://j1.example')).toBeNull();
    expect(sshCommand('not a url')).toBeNull();
  });

  it('shows a command as one would type it', () => {
    expect(shellLine(['python', '-c', 'import os; print(os.environ["X"])', "it's", 'a=b', ''])).toBe(
      `python -c 'import os; print(os.environ["X"])' 'it'\\''s' a=b ''`,
    );
  });

  it('pretty-prints WEBHOOK_PAYLOAD and finds the webhook that sent it', () => {
    const payload = {
      event: { scope: 'repo.content', action: 'update' },
      repo: { type: 'model', name: 'acme/m' },
      webhook: { id: 'w1', version: 3 },
    };
    expect(webhookPayload({ WEBHOOK_PAYLOAD: JSON.stringify(payload) })).toEqual({
      pretty: JSON.stringify(payload, null, 2),
      webhookId: 'w1',
      summary: 'repo.content.update on model acme/m',
    });
    expect(webhookPayload({ WEBHOOK_PAYLOAD: '{not json' })).toEqual({
      pretty: '{not json',
      webhookId: null,
      summary: null,
    });
    expect(webhookPayload({ WEBHOOK_PAYLOAD: '[1]' })).toMatchObject({ webhookId: null, summary: null });
    expect(webhookPayload({ OTHER: 'x' })).toBeNull();
  });
});

describe('jobTimeline', () => {
  const states = (j: Job) => jobTimeline(j).map((s) => [s.title, s.state]);

  it('marks where a live job is, with its message and retries', () => {
    expect(states(base)).toEqual([
      ['Scheduled', 'current'],
      ['Running', 'upcoming'],
      ['Finished', 'upcoming'],
    ]);
    const retrying = {
      ...base,
      retry: 1,
      startedAt: '2026-11-01T12:00:01Z',
      status: { stage: 'SCHEDULING' as const, message: 'Attempt 1 of 2 failed; retrying', failureCount: 1 },
    };
    expect(jobTimeline(retrying)[0]!.notes).toEqual([
      'Attempt 1 of 2 failed; retrying',
      'retry 1, 1 failed attempt so far',
    ]);
    expect(states({ ...base, startedAt: '2026-11-01T12:00:01Z', status: { stage: 'RUNNING', message: null } })).toEqual(
      [
        ['Scheduled', 'done'],
        ['Running', 'current'],
        ['Finished', 'upcoming'],
      ],
    );
  });

  it('ends in the stage the job ended in, with durations; a job canceled while scheduled skipped running', () => {
    const failed = {
      ...base,
      startedAt: '2026-11-01T12:00:01Z',
      finishedAt: '2026-11-01T12:00:04Z',
      durations: { schedulingSecs: 1, runningSecs: 3, totalSecs: 4 },
      status: { stage: 'ERROR' as const, message: 'exit code 1' },
    };
    const steps = jobTimeline(failed);
    expect(steps.map((s) => [s.title, s.state, s.at])).toEqual([
      ['Scheduled', 'done', '2026-11-01T12:00:00Z'],
      ['Running', 'done', '2026-11-01T12:00:01Z'],
      ['Failed', 'done', '2026-11-01T12:00:04Z'],
    ]);
    expect(steps.map((s) => s.notes)).toEqual([['waited 1 s'], ['ran 3 s'], ['exit code 1', '4 s in all']]);
    const canceled = {
      ...base,
      finishedAt: '2026-11-01T12:00:00.5Z',
      status: { stage: 'CANCELED' as const, message: 'Canceled by alice' },
    };
    expect(states(canceled)).toEqual([
      ['Scheduled', 'done'],
      ['Running', 'skipped'],
      ['Canceled', 'done'],
    ]);
  });
});
