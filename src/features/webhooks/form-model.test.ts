import { describe, expect, it } from 'vitest';
import { WebhookInput, type Webhook } from '../../hub/schemas/index.ts';
import {
  blankSecretErrors,
  draftFromWebhook,
  draftToBody,
  emptyDraft,
  errorsFromIssues,
  fieldForPath,
  type WebhookDraft,
} from './form-model.ts';

function jobDraft(patch: Partial<WebhookDraft['job']> = {}): WebhookDraft {
  const d = emptyDraft();
  d.watched = [{ type: 'user', name: 'alice' }];
  d.target = 'job';
  d.job = { ...d.job, dockerImage: 'python:3.12', ...patch };
  return d;
}

const errorsOf = (d: WebhookDraft) => {
  const r = WebhookInput.safeParse(draftToBody(d));
  return r.success ? {} : errorsFromIssues(r.error.issues, d).fields;
};

describe('webhook form model', () => {
  it('turns a complete job draft into a valid body', () => {
    const d = jobDraft({
      command: 'python\n-c\nprint(1)\n',
      environment: [{ key: 'LOG_LEVEL', value: 'debug' }],
      labels: [{ key: 'team', value: 'ml' }],
      ports: '8080, 7860',
      timeoutSeconds: '60',
      attempts: '2',
      volumes: [{ type: 'model', source: 'acme/m', mountPath: '/m', revision: '', readOnly: false, path: '' }],
      ssh: true,
    });
    const body = draftToBody(d);
    expect(WebhookInput.safeParse(body).success).toBe(true);
    expect(body.job).toMatchObject({
      command: ['python', '-c', 'print(1)'],
      expose: { ports: [8080, 7860] },
      timeoutSeconds: 60,
      attempts: 2,
      ssh: { enabled: true },
    });
    // Repos are read-only on their own: nothing to send.
    expect(body.job!.volumes![0]).toEqual({ type: 'model', source: 'acme/m', mountPath: '/m' });
  });

  it('maps every broken rule to the field that shows it', () => {
    const errors = errorsOf(
      jobDraft({
        ports: '70000',
        labels: [{ key: 'bad key', value: 'v' }],
        environment: [{ key: 'A', value: 'x' }],
        timeoutSeconds: '0',
        attempts: 'two',
        command: 'a\n\nb',
        volumes: [{ type: 'bucket', source: 'nope', mountPath: 'data', revision: '', readOnly: false, path: '' }],
      }),
    );
    expect(errors['job.expose']).toBe('ports are 1..65535');
    expect(errors['job.labels']).toMatch(/^"bad key": label keys/);
    expect(errors['job.environment']).toMatch(/^"A": environment keys/);
    expect(errors['job.timeoutSeconds']).toBe('timeoutSeconds must be greater than 0');
    expect(errors['job.attempts']).toBe('must be a number');
    expect(errors['job.command']).toBe('command items must not be empty');
    expect(errors['job.volumes.0.source']).toBe('source must be <namespace>/<name>');
    expect(errors['job.volumes.0.mountPath']).toBe('mountPath must begin with /');
  });

  it('reports a missing image on the field the user sees', () => {
    expect(errorsOf(jobDraft({ dockerImage: '' }))['job.dockerImage']).toBe('required');
    expect(errorsOf(jobDraft({ source: 'space', spaceId: '' }))['job.spaceId']).toBe('required');
  });

  it('reads hub field names as the hub writes them', () => {
    const d = jobDraft();
    expect(fieldForPath('body.job.expose.ports[0]', d)).toBe('job.expose');
    expect(fieldForPath('body.url', { ...d, target: 'url' })).toBe('url');
    expect(fieldForPath('body.nothing', d)).toBeNull();
  });

  it('round-trips a stored webhook and asks for secret values again when a stored job is replaced', () => {
    const w: Webhook = {
      id: 'a'.repeat(24),
      disabled: false,
      watched: [{ type: 'org', name: 'acme' }],
      domains: ['repo'],
      job: {
        dockerImage: 'python:3.12',
        environment: { LOG_LEVEL: 'info' },
        flavor: 'cpu-basic',
        timeoutSeconds: 600,
        secrets: ['HF_TOKEN'],
        labels: { team: 'ml' },
      },
    };
    const d = draftFromWebhook(w);
    expect(blankSecretErrors(d, true)['job.secrets']).toMatch(/^"HF_TOKEN": enter its value again/);
    // Not replacing the stored job (untouched, or a new webhook): nothing to enter again.
    expect(blankSecretErrors(d, false)).toEqual({});
    d.job.secrets[0]!.value = 'v';
    expect(blankSecretErrors(d, true)).toEqual({});
    expect(draftToBody(d).job).toMatchObject({
      dockerImage: 'python:3.12',
      environment: { LOG_LEVEL: 'info' },
      timeoutSeconds: 600,
      secrets: { HF_TOKEN: 'v' },
      labels: { team: 'ml' },
    });
  });
});
