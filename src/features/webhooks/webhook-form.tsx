import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { HubApiError, HubRequestError } from '../../hub/errors.ts';
import { WEBHOOK_DOMAINS, type WebhookInput, type WebhookUpdateInput } from '../../hub/schemas/index.ts';
import { issuesOfCreate, issuesOfUpdate, replacesStoredJob, storedJobNotice, updateBody } from './edit-body.ts';
import { FieldGroup } from './field-group.tsx';
import {
  blankSecretErrors,
  draftToBody,
  errorsFromIssues,
  fieldForPath,
  type FieldErrors,
  type TargetKind,
  type WebhookDraft,
} from './form-model.ts';
import { JobFields } from './job-fields.tsx';
import { JobSourceField } from './job-source-field.tsx';
import { WatchedEditor } from './watched-editor.tsx';

const TARGETS: { value: TargetKind; label: string }[] = [
  { value: 'url', label: 'URL' },
  { value: 'job', label: 'Run a job' },
  { value: 'jobSource', label: 'Existing job (jobSourceId)' },
];

type FormProps = { initial: WebhookDraft; submitLabel: string } & (
  | { editing: false; onSubmit(body: WebhookInput): Promise<unknown> }
  | { editing: true; onSubmit(body: WebhookUpdateInput): Promise<unknown> }
);

/**
 * Create/update editor. Every rule of the spec is checked with WebhookInput before anything is
 * sent (on edit, for the fields the update sends); a 400 from the hub that names a field is shown
 * next to that field too. An edit sends the job only when the user changed it (see edit-body.ts).
 */
export function WebhookForm(props: FormProps) {
  // The baseline an edit is compared with: what the user saw when the editor opened.
  const [initial] = useState(props.initial);
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [showSecret, setShowSecret] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const set = (patch: Partial<WebhookDraft>) => setDraft((d) => ({ ...d, ...patch }));

  useEffect(() => {
    if (attempt === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  function showFieldError(field: string | null, message: string, error: unknown) {
    const key = field ? fieldForPath(field, draft) : null;
    if (key) {
      setErrors({ [key]: message });
      setFormError(null);
    } else {
      setErrors({});
      setFormError(error);
    }
    setAttempt((n) => n + 1);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const full = draftToBody(draft);
    const body = props.editing ? updateBody(initial, draft) : full;
    const issues = props.editing ? issuesOfUpdate(initial, draft, body) : issuesOfCreate(full);
    const secretErrors = blankSecretErrors(draft, props.editing && replacesStoredJob(initial, draft));
    if (issues.length || Object.keys(secretErrors).length) {
      const { fields, form } = errorsFromIssues(issues, draft);
      setErrors({ ...secretErrors, ...fields });
      setFormError(form ? new Error(form) : null);
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    setFormError(null);
    setBusy(true);
    try {
      if (props.editing) await props.onSubmit(body);
      else await props.onSubmit(full);
    } catch (err) {
      if (err instanceof HubApiError && err.status >= 400 && err.status < 500 && err.field)
        showFieldError(
          err.field,
          err.hubMessage.slice(err.hubMessage.startsWith(err.field) ? err.field.length : 0).replace(/^\s*:\s*/, ''),
          err,
        );
      else if (err instanceof HubRequestError) showFieldError(err.field, err.issues[0]?.message ?? err.message, err);
      else {
        setFormError(err);
        setAttempt((n) => n + 1);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="max-w-3xl space-y-5" aria-label="Webhook editor">
      <WatchedEditor rows={draft.watched} onChange={(watched) => set({ watched })} error={errors.watched} />
      <FieldGroup legend="Domains" error={errors.domains} hint="Which event families trigger the webhook.">
        {({ errorId, invalid }) => (
          <div className="flex gap-4">
            {WEBHOOK_DOMAINS.map((d, i) => (
              <label key={d} className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  aria-invalid={invalid && i === 0}
                  aria-describedby={errorId}
                  checked={draft.domains.includes(d)}
                  onChange={(e) =>
                    set({ domains: e.target.checked ? [...draft.domains, d] : draft.domains.filter((x) => x !== d) })
                  }
                />
                {d === 'repo' ? 'Repository events' : 'Discussion events'}
              </label>
            ))}
          </div>
        )}
      </FieldGroup>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Target</legend>
        <div className="flex flex-wrap gap-4">
          {TARGETS.map((t) => (
            <label key={t.value} className="flex items-center gap-1.5 text-sm">
              <input
                type="radio"
                name="target"
                checked={draft.target === t.value}
                onChange={() => set({ target: t.value })}
              />{' '}
              {t.label}
            </label>
          ))}
        </div>
        {draft.target === 'url' && (
          <Field label="Payload URL" error={errors.url} hint="The hub POSTs each event as JSON here.">
            {(p) => (
              <input
                {...p}
                type="url"
                className={inputClass}
                value={draft.url}
                placeholder="https://example.com/webhooks/on_repo_update"
                spellCheck={false}
                onChange={(e) => set({ url: e.target.value })}
              />
            )}
          </Field>
        )}
        {draft.target === 'job' && (
          <JobFields
            job={draft.job}
            onChange={(job) => set({ job })}
            errors={errors}
            stored={props.editing ? storedJobNotice(initial, draft) : null}
            onKeepStored={() => set({ job: initial.job })}
          />
        )}
        {draft.target === 'jobSource' && (
          <JobSourceField
            value={draft.jobSourceId}
            onChange={(jobSourceId) => set({ jobSourceId })}
            error={errors.jobSourceId}
          />
        )}
      </fieldset>
      <Field
        label="Secret"
        error={errors.secret}
        hint="Printable ASCII. Receivers compare it with the X-Webhook-Secret header."
      >
        {(p) => (
          <div className="flex gap-2">
            <input
              {...p}
              type={showSecret ? 'text' : 'password'}
              autoComplete="off"
              className={inputClass}
              value={draft.secret}
              onChange={(e) => set({ secret: e.target.value })}
            />
            <Button onClick={() => setShowSecret((v) => !v)} aria-pressed={showSecret}>
              {showSecret ? 'Hide' : 'Show'}
            </Button>
          </div>
        )}
      </Field>
      {formError !== null && <ErrorPanel error={formError} title="The webhook was not saved" />}
      <Button type="submit" variant="primary" disabled={busy}>
        {busy ? 'Saving…' : props.submitLabel}
      </Button>
    </form>
  );
}
