import { Section } from './job-sections.tsx';
import { webhookPayload } from './job-view.ts';
import { TextLink } from '../../components/ui/text-link.tsx';

/** The WEBHOOK_PAYLOAD that started the job, pretty-printed, with a link back to its webhook. */
export function PayloadSection({ environment }: { environment: Record<string, string> }) {
  const payload = webhookPayload(environment);
  return (
    <Section id="job-payload-title" title="Webhook payload">
      {!payload ? (
        <p className="text-sm text-muted">No webhook started this job (its environment has no WEBHOOK_PAYLOAD).</p>
      ) : (
        <>
          <p className="mb-2 text-sm">
            {payload.summary ? (
              <>
                Started by <code className="font-mono text-xs">{payload.summary}</code>
              </>
            ) : (
              'Started by a webhook'
            )}
            {payload.webhookId && (
              <>
                {' '}
                from{' '}
                <TextLink to={`/webhooks/${encodeURIComponent(payload.webhookId)}`} data-testid="payload-webhook-link">
                  webhook {payload.webhookId}
                </TextLink>
              </>
            )}
            .
          </p>
          <pre
            tabIndex={0}
            aria-label="WEBHOOK_PAYLOAD"
            className="max-h-96 overflow-auto rounded-lg border border-border bg-surface-muted p-3 font-mono text-xs"
            data-testid="webhook-payload"
          >
            {payload.pretty}
          </pre>
        </>
      )}
    </Section>
  );
}
