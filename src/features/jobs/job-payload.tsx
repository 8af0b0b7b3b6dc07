import { Link } from 'react-router-dom';
import { Section } from './job-sections.tsx';
import { webhookPayload } from './job-view.ts';

/** The WEBHOOK_PAYLOAD that started the job, pretty-printed, with a link back to its webhook. */
export function PayloadSection({ environment }: { environment: Record<string, string> }) {
  const payload = webhookPayload(environment);
  return (
    <Section id="job-payload-title" title="Webhook payload">
      {!payload ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No webhook started this job (its environment has no WEBHOOK_PAYLOAD).
        </p>
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
                <Link
                  to={`/webhooks/${encodeURIComponent(payload.webhookId)}`}
                  className="text-amber-800 underline dark:text-amber-300"
                  data-testid="payload-webhook-link"
                >
                  webhook {payload.webhookId}
                </Link>
              </>
            )}
            .
          </p>
          <pre
            tabIndex={0}
            aria-label="WEBHOOK_PAYLOAD"
            className="max-h-96 overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs dark:border-slate-800 dark:bg-slate-900"
            data-testid="webhook-payload"
          >
            {payload.pretty}
          </pre>
        </>
      )}
    </Section>
  );
}
