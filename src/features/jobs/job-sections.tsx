import type { ReactNode } from 'react';
import { DescriptionRow } from '../../components/ui/description-row.tsx';
import { formatDateTime } from '../../components/ui/format.ts';
import { SimpleTable } from '../../components/ui/simple-table.tsx';
import type { Job } from '../../hub/schemas/index.ts';
import { LabelChips } from './label-chips.tsx';
import { jobTimeline, type StepState } from './job-timeline.ts';
import { formatDuration, runsWhat, shellLine, splitTags, sshCommand } from './job-view.ts';
import { ExternalTextLink } from '../../components/ui/text-link.tsx';

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0">
      <h2 id={id} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const DOT: Record<StepState, string> = {
  done: 'border-emerald-600 bg-emerald-600',
  current: 'border-amber-500 bg-amber-400 animate-pulse',
  upcoming: 'border-slate-400 bg-surface',
  skipped: 'border-slate-400 bg-subtle-strong',
};
const STATE_TEXT: Record<StepState, string> = { done: 'done', current: 'now', upcoming: 'not yet', skipped: 'skipped' };

export function TimelineSection({ job }: { job: Job }) {
  return (
    <Section id="job-timeline-title" title="Stages">
      <ol className="space-y-3" data-testid="job-timeline">
        {jobTimeline(job).map((step) => (
          <li
            key={step.key}
            className="flex gap-3"
            data-testid="timeline-step"
            data-state={step.state}
            aria-current={step.state === 'current' ? 'step' : undefined}
          >
            <span aria-hidden="true" className={`mt-1.5 h-3 w-3 shrink-0 rounded-full border-2 ${DOT[step.state]}`} />
            <div className="min-w-0 text-sm">
              <p>
                <span className="font-medium">{step.title}</span>{' '}
                <span className="text-muted">({STATE_TEXT[step.state]})</span>
                {step.at && (
                  <>
                    {' '}
                    · <time dateTime={step.at}>{formatDateTime(step.at)}</time>
                  </>
                )}
              </p>
              {step.notes.map((n) => (
                <p key={n} className="text-soft" data-testid="timeline-note">
                  {n}
                </p>
              ))}
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}

const code = 'rounded bg-subtle px-1 font-mono text-xs';

export function DetailsSection({ job }: { job: Job }) {
  const what = runsWhat(job);
  const { labels, plain } = splitTags(job.tags);
  const argv = [...(job.command ?? []), ...(job.arguments ?? [])];
  const failures = job.status.failureCount ?? 0;
  return (
    <Section id="job-details-title" title="Details">
      <dl className="text-sm" data-testid="job-details">
        <DescriptionRow term={what?.kind === 'space' ? 'Space' : 'Docker image'}>
          {what ? <code className={code}>{what.name}</code> : '—'}
        </DescriptionRow>
        <DescriptionRow term="Command">
          {argv.length ? <code className={code}>{shellLine(argv)}</code> : 'the image’s default'}
        </DescriptionRow>
        <DescriptionRow term="Flavor">
          {job.flavor}
          {job.arch ? ` · ${job.arch}` : ''}
        </DescriptionRow>
        <DescriptionRow term="Timeout">{job.timeout ? formatDuration(job.timeout) : 'none'}</DescriptionRow>
        <DescriptionRow term="Attempts">
          <span data-testid="job-attempts">
            {`attempt ${(job.retry ?? 0) + 1}`} · {failures} failed
            {job.retry ? ` · ${job.retry} ${job.retry === 1 ? 'retry' : 'retries'}` : ''}
          </span>
        </DescriptionRow>
        {job.status.cancelReason && <DescriptionRow term="Cancel reason">{job.status.cancelReason}</DescriptionRow>}
        <DescriptionRow term="Owner">
          {job.owner.name}
          {job.owner.type ? ` (${job.owner.type})` : ''}
        </DescriptionRow>
        <DescriptionRow term="Created by">{job.createdBy.name}</DescriptionRow>
        <DescriptionRow term="Labels">
          <LabelChips labels={labels} tags={plain} />
        </DescriptionRow>
      </dl>
    </Section>
  );
}

/** Exposed ports and SSH: shown only when the job has them. */
export function AccessSection({ job }: { job: Job }) {
  const urls = job.status.exposeUrls ?? [];
  const ssh = job.status.sshUrl;
  if (!urls.length && !ssh) return null;
  const command = ssh ? sshCommand(ssh) : null;
  return (
    <Section id="job-access-title" title="Access">
      {urls.length > 0 && (
        <>
          <p className="text-sm text-muted">Exposed ports (a token with read access to {job.owner.name} is needed):</p>
          <ul className="mb-3 mt-1 space-y-1 text-sm" data-testid="expose-urls">
            {urls.map((u) => (
              <li key={u}>
                <ExternalTextLink href={u} className="break-all font-mono text-xs">
                  {u}
                </ExternalTextLink>
              </li>
            ))}
          </ul>
        </>
      )}
      {ssh && (
        <>
          <p className="text-sm text-muted">SSH (the owner only, with an SSH key registered on the hub):</p>
          <code className={`${code} mt-1 block w-fit select-all p-2`} data-testid="ssh-command">
            {command ?? ssh}
          </code>
        </>
      )}
    </Section>
  );
}

export function VolumesSection({ job }: { job: Job }) {
  if (!job.volumes?.length) return null;
  return (
    <Section id="job-volumes-title" title="Volumes">
      <SimpleTable columns={['Type', 'Source', 'Mounted at', 'Revision', 'Access', 'Path']}>
        {job.volumes.map((v) => (
          <tr key={`${v.mountPath}:${v.source}`} className="border-t border-border" data-testid="volume-row">
            <td className="px-3 py-2">{v.type}</td>
            <td className="px-3 py-2 font-mono text-xs">{v.source}</td>
            <td className="px-3 py-2 font-mono text-xs">{v.mountPath}</td>
            <td className="px-3 py-2">{v.revision ?? '—'}</td>
            <td className="px-3 py-2">{v.readOnly === undefined ? '—' : v.readOnly ? 'read-only' : 'read-write'}</td>
            <td className="px-3 py-2 font-mono text-xs">{v.path ?? '—'}</td>
          </tr>
        ))}
      </SimpleTable>
    </Section>
  );
}

/** Environment values (the payload has its own section) and secret names; a secret's value is never returned by the hub. */
export function EnvironmentSection({ job }: { job: Job }) {
  const env = Object.entries(job.environment).filter(([k]) => k !== 'WEBHOOK_PAYLOAD');
  const secrets = Object.keys(job.secrets ?? {});
  return (
    <Section id="job-env-title" title="Environment">
      {env.length === 0 && secrets.length === 0 && <p className="text-sm text-muted">No variables or secrets.</p>}
      <dl className="text-sm" data-testid="job-environment">
        {env.map(([k, v]) => (
          <DescriptionRow key={k} term={k}>
            <code className={code}>{v}</code>
          </DescriptionRow>
        ))}
        {secrets.map((k) => (
          <DescriptionRow key={`secret:${k}`} term={k}>
            <span className="text-muted" data-testid="secret">
              secret (value hidden)
            </span>
          </DescriptionRow>
        ))}
      </dl>
    </Section>
  );
}
