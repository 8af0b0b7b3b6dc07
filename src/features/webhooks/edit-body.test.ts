import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../hub/schemas/index.ts';
import { issuesOfUpdate, replacesStoredJob, storedJobNotice, UNSHOWN_JOB_FIELDS, updateBody } from './edit-body.ts';
import { draftFromWebhook, type WebhookDraft } from './form-model.ts';

const jobHook: Webhook = {
  id: 'a'.repeat(24),
  disabled: false,
  watched: [{ type: 'org', name: 'acme', avatarUrl: 'https://cdn.example.test/acme.svg' }],
  domains: ['repo'],
  job: {
    dockerImage: 'python:3.12',
    environment: { LOG_LEVEL: 'info' },
    flavor: 'cpu-basic',
    timeoutSeconds: 600,
    secrets: ['HF_TOKEN'],
  },
};
const urlHook: Webhook = {
  id: 'b'.repeat(24),
  disabled: false,
  watched: [{ type: 'user', name: 'alice' }],
  domains: ['repo', 'discussion'],
  url: 'https://example.test/hook',
  secret: 's3cret',
};

const edit = (w: Webhook, change: (d: WebhookDraft) => void) => {
  const initial = draftFromWebhook(w);
  const draft = structuredClone(initial);
  change(draft);
  return { initial, draft, body: updateBody(initial, draft) };
};

describe('webhook edit body', () => {
  it('names the stored job settings the hub does not return, from the schemas', () => {
    expect(UNSHOWN_JOB_FIELDS).toEqual(['arch', 'attempts', 'volumes', 'expose', 'ssh']);
  });

  it('leaves an untouched job out, sending what the form shows in full as loaded', () => {
    const { body, initial, draft } = edit(jobHook, (d) => (d.domains = ['repo', 'discussion']));
    expect(body).toEqual({ watched: [{ type: 'org', name: 'acme' }], domains: ['repo', 'discussion'] });
    expect(replacesStoredJob(initial, draft)).toBe(false);
    expect(storedJobNotice(initial, draft)).toEqual({
      touched: false,
      hidden: ['architecture', 'attempts', 'volumes', 'exposed ports', 'SSH'],
      secrets: ['HF_TOKEN'],
    });
  });

  it('sends the job once the user changes it, and then warns and asks for secret values', () => {
    const { body, initial, draft } = edit(jobHook, (d) => (d.job.timeoutSeconds = '60'));
    expect(body.job).toMatchObject({ dockerImage: 'python:3.12', timeoutSeconds: 60, secrets: { HF_TOKEN: '' } });
    expect(replacesStoredJob(initial, draft)).toBe(true);
    expect(storedJobNotice(initial, draft)?.touched).toBe(true);
    // Changed back by hand: untouched again, nothing to replace.
    draft.job.timeoutSeconds = '600';
    expect(updateBody(initial, draft).job).toBeUndefined();
  });

  it('sends a new job for a URL webhook switched to a job, without asking for stored secrets', () => {
    const { body, initial, draft } = edit(urlHook, (d) => {
      d.target = 'job';
      d.job.dockerImage = 'python:3.12';
    });
    expect(body.job).toMatchObject({ dockerImage: 'python:3.12', flavor: 'cpu-basic' });
    expect(body.url).toBeUndefined();
    expect(replacesStoredJob(initial, draft)).toBe(false);
    expect(storedJobNotice(initial, draft)).toBeNull();
  });

  it('removes a cleared secret with secret: "" and leaves an absent one absent', () => {
    expect(edit(urlHook, (d) => (d.secret = '')).body.secret).toBe('');
    expect(edit(urlHook, () => undefined).body.secret).toBe('s3cret');
    expect('secret' in edit(jobHook, () => undefined).body).toBe(false);
  });

  it('keeps loaded values verbatim when untouched, and trims what the user typed', () => {
    const padded: Webhook = { ...urlHook, watched: [{ type: 'model', name: ' acme/m ' }] };
    expect(edit(padded, () => undefined).body.watched).toEqual([{ type: 'model', name: ' acme/m ' }]);
    expect(edit(padded, (d) => d.watched.push({ type: 'user', name: ' bob ' })).body.watched).toEqual([
      { type: 'model', name: 'acme/m' },
      { type: 'user', name: 'bob' },
    ]);
  });

  it('checks only what is sent: a stored job the form cannot rebuild does not block a domains edit', () => {
    const odd: Webhook = { ...jobHook, job: { ...jobHook.job!, dockerImage: undefined, spaceId: '' } };
    const ok = edit(odd, (d) => (d.domains = ['discussion']));
    expect(issuesOfUpdate(ok.initial, ok.draft, ok.body)).toEqual([]);
    const bad = edit(odd, (d) => (d.job.flavor = 'cpu-upgrade'));
    expect(issuesOfUpdate(bad.initial, bad.draft, bad.body).map((i) => i.path.join('.'))).toContain('job.spaceId');
    const empty = edit(urlHook, (d) => (d.watched = []));
    expect(issuesOfUpdate(empty.initial, empty.draft, empty.body).map((i) => i.message)).toContain(
      'watched needs at least one item',
    );
  });
});
