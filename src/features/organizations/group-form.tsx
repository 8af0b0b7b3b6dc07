import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { HubApiError } from '../../hub/errors.ts';
import { ResourceGroupCreate, ResourceGroupPatch } from '../../hub/schemas/index.ts';
import { groupFieldErrors, type GroupFieldErrors } from './group-fields-errors.ts';

export interface GroupValues {
  name: string;
  description: string;
}

/**
 * Name (1..200) and description (<= 500), checked with the spec's schema as the user types.
 * Create sends both; edit sends only what changed (PATCH).
 */
export function GroupForm(props: {
  mode: 'create' | 'edit';
  initial: GroupValues;
  submitLabel: string;
  onSubmit(body: Partial<GroupValues>): Promise<unknown>;
  onDone?: () => void;
}) {
  const [values, setValues] = useState(props.initial);
  const [touched, setTouched] = useState<{ name?: boolean; description?: boolean }>({});
  const [hubErrors, setHubErrors] = useState<GroupFieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  const body: Partial<GroupValues> =
    props.mode === 'create'
      ? { name: values.name, ...(values.description ? { description: values.description } : {}) }
      : {
          ...(values.name !== props.initial.name ? { name: values.name } : {}),
          ...(values.description !== props.initial.description ? { description: values.description } : {}),
        };
  const checked = (props.mode === 'create' ? ResourceGroupCreate : ResourceGroupPatch).safeParse(body);
  const schemaErrors = checked.success ? {} : groupFieldErrors(checked.error.issues);
  const shown: GroupFieldErrors = {
    name: (touched.name && schemaErrors.name) || hubErrors.name,
    description: (touched.description && schemaErrors.description) || hubErrors.description,
  };
  const unchanged = props.mode === 'edit' && Object.keys(body).length === 0;

  useEffect(() => {
    if (attempt) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const change = (field: keyof GroupValues, v: string) => {
    setValues((s) => ({ ...s, [field]: v }));
    setTouched((t) => ({ ...t, [field]: true }));
    setHubErrors((h) => ({ ...h, [field]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched({ name: true, description: true });
    if (!checked.success || unchanged) {
      setAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await props.onSubmit(body);
      if (props.mode === 'create') setValues({ name: '', description: '' });
      setTouched({});
      props.onDone?.();
    } catch (err) {
      const field = err instanceof HubApiError ? (err.field?.replace(/^body\./, '') ?? null) : null;
      if (err instanceof HubApiError && (field === 'name' || field === 'description'))
        setHubErrors({ [field]: err.hubMessage });
      else setError(err);
      setAttempt((n) => n + 1);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      className="space-y-3"
      aria-label={props.mode === 'create' ? 'New resource group' : 'Edit resource group'}
    >
      <Field label="Name" error={shown.name} hint={`${values.name.length}/200 characters`}>
        {(p) => (
          <input {...p} className={inputClass} value={values.name} onChange={(e) => change('name', e.target.value)} />
        )}
      </Field>
      <Field label="Description" error={shown.description} hint={`${values.description.length}/500 characters`}>
        {(p) => (
          <textarea
            {...p}
            rows={2}
            className={inputClass}
            value={values.description}
            onChange={(e) => change('description', e.target.value)}
          />
        )}
      </Field>
      {error !== null && (
        <ErrorPanel
          error={error}
          title={props.mode === 'create' ? 'The group was not created' : 'The changes were not saved'}
        />
      )}
      <Button type="submit" variant="primary" disabled={busy || unchanged}>
        {busy ? 'Saving…' : props.submitLabel}
      </Button>
    </form>
  );
}
