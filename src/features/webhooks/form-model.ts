import type { z } from 'zod';
import type { VOLUME_TYPES, Webhook, WebhookDomain, WebhookInput, WATCHED_TYPES } from '../../hub/schemas/index.ts';

export type WatchedType = (typeof WATCHED_TYPES)[number];
export type VolumeType = (typeof VOLUME_TYPES)[number];
export type TargetKind = 'url' | 'job' | 'jobSource';

export interface KeyValue {
  key: string;
  value: string;
}

export interface VolumeDraft {
  type: VolumeType;
  source: string;
  mountPath: string;
  revision: string;
  readOnly: boolean;
  path: string;
}

/** What the editor holds: strings as typed, turned into a request body only on submit. */
export interface JobDraft {
  source: 'docker' | 'space';
  dockerImage: string;
  spaceId: string;
  /** One item per line. */
  command: string;
  arguments: string;
  environment: KeyValue[];
  secrets: KeyValue[];
  flavor: string;
  arch: '' | 'amd64' | 'arm64';
  timeoutSeconds: string;
  attempts: string;
  labels: KeyValue[];
  volumes: VolumeDraft[];
  /** Comma or space separated. */
  ports: string;
  ssh: boolean;
}

export interface WebhookDraft {
  watched: { type: WatchedType; name: string }[];
  domains: WebhookDomain[];
  target: TargetKind;
  url: string;
  jobSourceId: string;
  secret: string;
  job: JobDraft;
}

export function emptyJobDraft(): JobDraft {
  return {
    source: 'docker',
    dockerImage: '',
    spaceId: '',
    command: '',
    arguments: '',
    environment: [],
    secrets: [],
    flavor: 'cpu-basic',
    arch: '',
    timeoutSeconds: '',
    attempts: '1',
    labels: [],
    volumes: [],
    ports: '',
    ssh: false,
  };
}

export function emptyDraft(): WebhookDraft {
  return {
    watched: [{ type: 'model', name: '' }],
    domains: ['repo'],
    target: 'url',
    url: '',
    jobSourceId: '',
    secret: '',
    job: emptyJobDraft(),
  };
}

const entries = (o: Record<string, string> | undefined): KeyValue[] =>
  Object.entries(o ?? {}).map(([key, value]) => ({ key, value }));

export function draftFromWebhook(w: Webhook): WebhookDraft {
  const job = emptyJobDraft();
  if (w.job) {
    job.source = w.job.spaceId !== undefined ? 'space' : 'docker';
    job.dockerImage = w.job.dockerImage ?? '';
    job.spaceId = w.job.spaceId ?? '';
    job.command = (w.job.command ?? []).join('\n');
    job.arguments = (w.job.arguments ?? []).join('\n');
    job.environment = entries(w.job.environment);
    // The hub returns secret names only; values stay blank unless the user sets them again.
    job.secrets = (w.job.secrets ?? []).map((key) => ({ key, value: '' }));
    job.flavor = w.job.flavor;
    job.timeoutSeconds = w.job.timeoutSeconds === null ? '' : String(w.job.timeoutSeconds);
    job.labels = entries(w.job.labels);
  }
  return {
    watched: w.watched.map(({ type, name }) => ({ type, name })),
    domains: [...w.domains],
    target: w.url !== undefined ? 'url' : w.job ? 'job' : 'jobSource',
    url: w.url ?? '',
    jobSourceId: w.jobSourceId ?? '',
    secret: w.secret ?? '',
    job,
  };
}

function lines(text: string): string[] | undefined {
  if (text === '') return undefined;
  const items = text.split('\n');
  if (items.at(-1) === '') items.pop();
  return items;
}

function record(rows: KeyValue[]): Record<string, string> | undefined {
  const used = rows.filter((r) => r.key !== '' || r.value !== '');
  return used.length ? Object.fromEntries(used.map((r) => [r.key, r.value])) : undefined;
}

/** Empty means "no limit" (null); anything else must parse as a number for the schema to judge. */
function numberOrNull(text: string): number | null {
  return text.trim() === '' ? null : Number(text.trim());
}

function jobBody(job: JobDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { flavor: job.flavor };
  if (job.source === 'docker') body.dockerImage = job.dockerImage.trim();
  else body.spaceId = job.spaceId.trim();
  const command = lines(job.command);
  if (command) body.command = command;
  const args = lines(job.arguments);
  if (args) body.arguments = args;
  body.environment = record(job.environment) ?? {};
  const secrets = record(job.secrets);
  if (secrets) body.secrets = secrets;
  if (job.arch) body.arch = job.arch;
  body.timeoutSeconds = numberOrNull(job.timeoutSeconds);
  body.attempts = job.attempts.trim() === '' ? 1 : Number(job.attempts.trim());
  const labels = record(job.labels);
  if (labels) body.labels = labels;
  if (job.volumes.length) {
    body.volumes = job.volumes.map((v) => {
      const out: Record<string, unknown> = { type: v.type, source: v.source.trim(), mountPath: v.mountPath.trim() };
      if (v.type !== 'bucket' && v.revision.trim()) out.revision = v.revision.trim();
      // Repos are always mounted read-only; only a bucket can be asked to be.
      if (v.type === 'bucket' && v.readOnly) out.readOnly = true;
      if (v.path.trim()) out.path = v.path.trim();
      return out;
    });
  }
  const ports = job.ports.split(/[\s,]+/).filter(Boolean);
  if (ports.length) body.expose = { ports: ports.map(Number) };
  if (job.ssh) body.ssh = { enabled: true };
  return body;
}

/** The request body the draft stands for; WebhookInput decides whether it is valid. */
export function draftToBody(d: WebhookDraft): WebhookInput {
  const body: Record<string, unknown> = {
    watched: d.watched.map((w) => ({ type: w.type, name: w.name.trim() })),
    domains: d.domains,
  };
  if (d.target === 'url') body.url = d.url.trim();
  else if (d.target === 'job') body.job = jobBody(d.job);
  else body.jobSourceId = d.jobSourceId.trim();
  if (d.secret !== '') body.secret = d.secret;
  return body as WebhookInput;
}

/** Fields that show errors; volume rows add `job.volumes.<i>.<field>`. */
const FIELD_KEYS = [
  'watched',
  'domains',
  'url',
  'jobSourceId',
  'secret',
  'job.dockerImage',
  'job.spaceId',
  'job.command',
  'job.arguments',
  'job.environment',
  'job.secrets',
  'job.flavor',
  'job.arch',
  'job.timeoutSeconds',
  'job.attempts',
  'job.labels',
  'job.volumes',
  'job.expose',
  'job.ssh',
  'job',
];

export type FieldErrors = Record<string, string>;

/** `job.expose.ports[0]` or ['job','expose','ports',0] -> the field that shows it. */
export function fieldForPath(path: string | ReadonlyArray<PropertyKey>, draft: WebhookDraft): string | null {
  // The hub names body fields as `body.job.expose.ports[0]`.
  const dotted =
    typeof path === 'string' ? path.replace(/^body\./, '').replace(/\[(\d+)\]/g, '.$1') : path.map(String).join('.');
  const keys = [...FIELD_KEYS];
  draft.job.volumes.forEach((_, i) =>
    keys.push(...['type', 'source', 'mountPath', 'revision', 'readOnly', 'path'].map((f) => `job.volumes.${i}.${f}`)),
  );
  let best: string | null = null;
  for (const k of keys) {
    if ((dotted === k || dotted.startsWith(`${k}.`)) && (!best || k.length > best.length)) best = k;
  }
  // A job with neither image nor Space is reported on dockerImage; show it on the visible one.
  if (best === 'job.dockerImage' && draft.job.source === 'space') best = 'job.spaceId';
  if (best === 'url' && draft.target !== 'url') best = draft.target === 'job' ? 'job' : 'jobSourceId';
  return best;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
  let message = inner ?? issue.message;
  // zod's own wording for an empty string; the schemas' custom messages are kept.
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1 && message.startsWith('Too small'))
    message = 'required';
  if (issue.code === 'invalid_type' && issue.expected === 'number') message = 'must be a number';
  if (issue.code === 'invalid_value' && issue.path.at(-1) === 'flavor') message = 'choose a flavor from the list';
  const [, second, key] = issue.path;
  // Map entries name their key, so the user knows which row is wrong.
  if (
    issue.path[0] === 'job' &&
    (second === 'labels' || second === 'environment' || second === 'secrets') &&
    key !== undefined
  ) {
    return `"${String(key)}": ${message}`;
  }
  return message;
}

export function errorsFromIssues(
  issues: ReadonlyArray<z.core.$ZodIssue>,
  draft: WebhookDraft,
): { fields: FieldErrors; form: string | null } {
  const fields: FieldErrors = {};
  let form: string | null = null;
  for (const issue of issues) {
    const field = fieldForPath(issue.path, draft);
    const message = issueMessage(issue);
    if (!field) form ??= message;
    else fields[field] ??= message;
  }
  return { fields, form };
}

/**
 * The hub returns secret names only, and saving a changed job replaces it: a stored secret saved
 * with a blank value would be wiped. So, when a stored job is replaced, each listed secret needs
 * its value again.
 */
export function blankSecretErrors(d: WebhookDraft, replacingStoredJob: boolean): FieldErrors {
  if (!replacingStoredJob || d.target !== 'job') return {};
  const blank = d.job.secrets.find((s) => s.key !== '' && s.value === '');
  return blank
    ? {
        'job.secrets': `"${blank.key}": enter its value again (the hub never sends secret values back), or remove the row`,
      }
    : {};
}
