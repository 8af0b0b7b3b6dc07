import type { z } from 'zod';
import { WebhookInput, WebhookJob, WebhookJobRequest, type WebhookUpdateInput } from '../../hub/schemas/index.ts';
import { draftToBody, type WebhookDraft } from './form-model.ts';

/**
 * Stored job settings the hub does not return (in the request schema, not in the response one),
 * so the editor cannot show them: derived from the schemas, so a new such field is listed too.
 */
export const UNSHOWN_JOB_FIELDS = Object.keys(WebhookJobRequest.shape).filter((k) => !(k in WebhookJob.shape));

const JOB_FIELD_LABELS: Record<string, string> = {
  arch: 'architecture',
  attempts: 'attempts',
  volumes: 'volumes',
  expose: 'exposed ports',
  ssh: 'SSH',
};
export const unshownJobLabels = () => UNSHOWN_JOB_FIELDS.map((k) => JOB_FIELD_LABELS[k] ?? k);

/** The job section differs from what was loaded (or the target became a new job). */
export function jobTouched(initial: WebhookDraft, draft: WebhookDraft): boolean {
  if (draft.target !== 'job') return false;
  return initial.target !== 'job' || JSON.stringify(draft.job) !== JSON.stringify(initial.job);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The update body of an edit. What the form shows in full is sent (watched, domains, a URL or
 * source job id, the secret), exactly as loaded when the user left it alone, so an unchanged save
 * changes nothing. The job is sent only when the user touched it: the hub does not return arch,
 * attempts, volumes, expose, ssh or secret values, so re-sending the form's job would reset them.
 * A cleared secret is sent as `""`, which removes it (docs/decisions.md).
 */
export function updateBody(initial: WebhookDraft, draft: WebhookDraft): WebhookUpdateInput {
  const full = draftToBody(draft);
  const body: WebhookUpdateInput = {
    watched: same(draft.watched, initial.watched)
      ? initial.watched.map(({ type, name }) => ({ type, name }))
      : full.watched,
    domains: full.domains,
  };
  if (draft.target === 'url') body.url = initial.target === 'url' && draft.url === initial.url ? initial.url : full.url;
  else if (draft.target === 'jobSource')
    body.jobSourceId =
      initial.target === 'jobSource' && draft.jobSourceId === initial.jobSourceId
        ? initial.jobSourceId
        : full.jobSourceId;
  else if (jobTouched(initial, draft)) body.job = full.job;
  if (draft.secret !== '') body.secret = draft.secret;
  else if (initial.secret !== '') body.secret = '';
  return body;
}

/** Problems with a create body. */
export function issuesOfCreate(body: WebhookInput): z.core.$ZodIssue[] {
  const checked = WebhookInput.safeParse(body);
  return checked.success ? [] : checked.error.issues;
}

/**
 * Problems with what an edit sends, by the create body's rules: the body completed with the
 * draft's own target (so "exactly one target" holds), and only issues of fields it sends (a job
 * left out is not checked: it is not sent).
 */
export function issuesOfUpdate(
  initial: WebhookDraft,
  draft: WebhookDraft,
  body: WebhookUpdateInput,
): z.core.$ZodIssue[] {
  const checked = WebhookInput.safeParse({ ...draftToBody(draft), ...body });
  if (checked.success) return [];
  return checked.error.issues.filter((i) => i.path.length === 0 || String(i.path[0]) in body);
}

/** Saving replaces a stored job: its secret values must be entered again (they are never returned). */
export function replacesStoredJob(initial: WebhookDraft, draft: WebhookDraft): boolean {
  return initial.target === 'job' && jobTouched(initial, draft);
}

/** What the editor tells the user about a stored job it cannot show, or null when none is stored. */
export function storedJobNotice(
  initial: WebhookDraft,
  draft: WebhookDraft,
): { touched: boolean; hidden: string[]; secrets: string[] } | null {
  if (initial.target !== 'job' || draft.target !== 'job') return null;
  return {
    touched: jobTouched(initial, draft),
    hidden: unshownJobLabels(),
    secrets: initial.job.secrets.map((s) => s.key).filter(Boolean),
  };
}
