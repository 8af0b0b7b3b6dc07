import { useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { describeError } from '../../components/ui/describe-error.ts';
import { inputClass } from '../../components/ui/field.tsx';
import { TEST_EVENT_SAMPLES, testEventDomain, type TestEventSample, type Webhook } from '../../hub/schemas/index.ts';
import { useSendTestEvent } from './use-webhook-mutations.ts';
import { TextLink } from '../../components/ui/text-link.tsx';

const SAMPLE_LABELS: Record<TestEventSample, string> = {
  'repo-create': 'Repository created (repo · create)',
  'repo-update': 'Push to main (repo.content · update)',
  'repo-config': 'Settings changed (repo.config · update)',
  'discussion-create': 'Discussion opened (discussion · create)',
  'discussion-comment': 'New comment (discussion.comment · create)',
  'pull-request-create': 'Pull request opened (discussion · create)',
};

/**
 * Sends a sample event through the hub's normal delivery path to this webhook only; the new log
 * entry shows up in the log below once the receiver has answered.
 */
export function SendTestEvent({ webhook }: { webhook: Pick<Webhook, 'id' | 'domains'> }) {
  const id = useId();
  const samples = TEST_EVENT_SAMPLES.filter((s) => webhook.domains.includes(testEventDomain(s)));
  const [sample, setSample] = useState<TestEventSample>(samples[0] ?? 'repo-create');
  const send = useSendTestEvent(webhook.id);
  return (
    <div
      className="mb-3 flex flex-wrap items-end gap-2 rounded-lg border border-border p-3 text-sm"
      data-testid="send-test-event"
    >
      <div className="min-w-64">
        <label htmlFor={id} className="mb-0.5 block text-xs font-medium text-soft">
          Sample event
        </label>
        <select
          id={id}
          className={inputClass}
          value={sample}
          onChange={(e) => setSample(e.target.value as TestEventSample)}
        >
          {samples.map((s) => (
            <option key={s} value={s}>
              {SAMPLE_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <Button onClick={() => send.mutate(sample)} disabled={send.isPending || samples.length === 0}>
        {send.isPending ? 'Sending…' : 'Send test event'}
      </Button>
      <span role="status" className="text-xs" data-testid="test-event-result">
        {send.isSuccess && (
          <>
            Test event delivered: {send.data.status ? `HTTP ${send.data.status}` : 'no response'} ·{' '}
            <TextLink to={`deliveries/${send.data.logId}`}>View delivery</TextLink>
          </>
        )}
        {send.isError && (
          <span className="text-danger">Could not send the test event: {describeError(send.error).message}</span>
        )}
      </span>
    </div>
  );
}
