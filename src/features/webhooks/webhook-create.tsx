import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { emptyDraft } from './form-model.ts';
import { useCreateWebhook } from './use-webhook-mutations.ts';
import { WebhookForm } from './webhook-form.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';

export function WebhookCreate() {
  const navigate = useNavigate();
  const save = useCreateWebhook();
  return (
    <>
      <p className="mb-2 text-sm">
        <TextLink to=".." relative="path">
          ← All webhooks
        </TextLink>
      </p>
      <PageHeader title="New webhook" />
      <WebhookForm
        initial={emptyDraft()}
        editing={false}
        submitLabel="Create webhook"
        onSubmit={async (body) => {
          const w = await save.mutateAsync(body);
          navigate(`../${w.id}`, { relative: 'path' });
        }}
      />
    </>
  );
}
