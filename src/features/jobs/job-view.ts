import { isTerminalStage, type Job } from '../../hub/schemas/index.ts';

/** Labels travel in `tags` as `key=value` (the spec's Job has no labels field); other tags stay tags. */
export function splitTags(tags: readonly string[] = []): { labels: [string, string][]; plain: string[] } {
  const labels: [string, string][] = [];
  const plain: string[] = [];
  for (const t of tags) {
    const at = t.indexOf('=');
    if (at > 0) labels.push([t.slice(0, at), t.slice(at + 1)]);
    else plain.push(t);
  }
  return { labels, plain };
}

/** What the job runs: its Docker image, or the Space whose image it uses. */
export function runsWhat(job: Pick<Job, 'dockerImage' | 'spaceId'>): { kind: 'image' | 'space'; name: string } | null {
  if (job.dockerImage) return { kind: 'image', name: job.dockerImage };
  if (job.spaceId) return { kind: 'space', name: job.spaceId };
  return null;
}

/**
 * Seconds the job took (or has taken so far): the hub's `durations.totalSecs` once it ended,
 * else counted from `createdAt` to `now`, as the hub would on the next fetch.
 */
export function elapsedSecs(
  job: Pick<Job, 'createdAt' | 'finishedAt' | 'durations' | 'status'>,
  now: number,
): number | null {
  if (job.durations?.totalSecs !== undefined && (job.finishedAt || isTerminalStage(job.status.stage)))
    return job.durations.totalSecs;
  if (job.finishedAt) return (Date.parse(job.finishedAt) - Date.parse(job.createdAt)) / 1000;
  if (isTerminalStage(job.status.stage)) return null;
  return Math.max(0, (now - Date.parse(job.createdAt)) / 1000);
}

/** `1 h 2 min`, `3 min 4 s`, `5 s`, `0.4 s`. */
export function formatDuration(secs: number | null | undefined): string {
  if (secs === null || secs === undefined || !Number.isFinite(secs)) return '—';
  if (secs < 10) return `${Math.round(secs * 10) / 10} s`;
  const s = Math.round(secs);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min ${s % 60} s`;
  return `${s} s`;
}

/**
 * The command that opens the job's SSH session, from the hub's `sshUrl` (`ssh://<job_id>@<host>[:port]`,
 * split as huggingface_hub's `hf jobs ssh` does). Null when the URL is not an ssh:// URL.
 */
export function sshCommand(sshUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(sshUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'ssh:' || !url.username || !url.hostname) return null;
  return `ssh ${decodeURIComponent(url.username)}@${url.hostname}${url.port ? ` -p ${url.port}` : ''}`;
}

export interface WebhookPayloadView {
  /** The payload, indented; the raw text when it is not JSON. */
  pretty: string;
  /** The webhook that sent it, from the payload's `webhook.id`. */
  webhookId: string | null;
  /** `repo.content.update on model acme/x`, when the payload says. */
  summary: string | null;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** The `WEBHOOK_PAYLOAD` that started the job, if a webhook did. */
export function webhookPayload(environment: Record<string, string>): WebhookPayloadView | null {
  const raw = environment.WEBHOOK_PAYLOAD;
  if (raw === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { pretty: raw, webhookId: null, summary: null };
  }
  const p = (parsed && typeof parsed === 'object' ? parsed : {}) as {
    webhook?: { id?: unknown };
    event?: { scope?: unknown; action?: unknown };
    repo?: { type?: unknown; name?: unknown };
  };
  const scope = str(p.event?.scope);
  const action = str(p.event?.action);
  const repo = str(p.repo?.name);
  return {
    pretty: JSON.stringify(parsed, null, 2),
    webhookId: str(p.webhook?.id),
    summary: scope && action ? `${scope}.${action}${repo ? ` on ${str(p.repo?.type) ?? 'repo'} ${repo}` : ''}` : null,
  };
}

/** argv as one would type it in a shell: words with spaces or shell characters in single quotes. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
