import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Toggle } from '../../components/ui/toggle.tsx';
import { NotificationSettingsPatch } from '../../hub/schemas/index.ts';
import { hubFieldError, issuesByField } from './field-errors.ts';
import { FLAG_GROUPS } from './flag-groups.ts';
import { PrepaidAmountField } from './prepaid-amount-field.tsx';
import { ProductUpdatesField } from './product-updates-field.tsx';
import { isDirty, patchFrom, type Draft } from './settings-draft.ts';
import { TriStateFlag } from './tri-state-flag.tsx';
import type { useSaveNotificationSettings } from './use-save-notification-settings.ts';

/**
 * Keyed by the caller on the loaded settings, so a saved change starts a fresh draft; the save
 * mutation lives with the caller so its outcome survives that remount. `threeWay`: the current
 * values are unknown, so each flag is leave unchanged / on / off and only what is set is sent.
 */
export function NotificationSettingsForm({
  saved,
  save,
  threeWay = false,
  onSaved,
}: {
  saved: Draft;
  save: ReturnType<typeof useSaveNotificationSettings>;
  threeWay?: boolean;
  onSaved?(draft: Draft): void;
}) {
  const [draft, setDraft] = useState(saved);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [dateError, setDateError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const dirty = isDirty(saved, draft);

  function submit(e?: FormEvent) {
    e?.preventDefault();
    setFieldError(undefined);
    setDateError(undefined);
    setFormError(undefined);
    const patch = patchFrom(saved, draft);
    const checked = NotificationSettingsPatch.safeParse(patch);
    if (!checked.success) {
      const byField = issuesByField(checked.error);
      setFieldError(byField.prepaidAmount);
      const other = checked.error.issues.find((i) => i.path[0] !== 'prepaidAmount');
      if (other?.path[1] === 'product_updates_after') setDateError(other.message);
      else setFormError(other?.message);
      return;
    }
    save.mutate(patch, {
      onSuccess: () => onSaved?.(draft),
      onError: (err) => {
        const f = hubFieldError(err, ['prepaidAmount'] as const);
        if (f) setFieldError(f.message);
      },
    });
  }

  // Ctrl/Cmd+S saves, as in an editor.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 's') {
        e.preventDefault();
        document.getElementById('save-notification-settings')?.click();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const showHubError = save.isError && !hubFieldError(save.error, ['prepaidAmount'] as const);
  return (
    <form onSubmit={submit} noValidate aria-label="Notification settings">
      <div className="grid items-start gap-4 lg:grid-cols-2">
        {FLAG_GROUPS.map((group) => (
          <fieldset
            key={group.id}
            className="rounded-lg border border-border px-4 py-2"
            data-testid={`flag-group-${group.id}`}
          >
            <legend className="px-1 text-sm font-semibold">{group.title}</legend>
            <div className="divide-y divide-border">
              {group.flags.map((f) => (
                <div key={f.flag}>
                  {threeWay ? (
                    <TriStateFlag
                      name={f.flag}
                      label={f.label}
                      description={f.description}
                      value={draft.flags[f.flag]}
                      onChange={(v) => setDraft((d) => ({ ...d, flags: { ...d.flags, [f.flag]: v } }))}
                    />
                  ) : (
                    <Toggle
                      label={f.label}
                      description={f.description}
                      checked={draft.flags[f.flag] === true}
                      onChange={(v) => setDraft((d) => ({ ...d, flags: { ...d.flags, [f.flag]: v } }))}
                    />
                  )}
                  {f.flag === 'launch_prepaid_credits' && draft.flags.launch_prepaid_credits && (
                    <PrepaidAmountField
                      value={draft.prepaidAmount}
                      error={fieldError}
                      onChange={(v) => {
                        setFieldError(undefined);
                        setDraft((d) => ({ ...d, prepaidAmount: v }));
                      }}
                    />
                  )}
                </div>
              ))}
              {group.id === 'product' && (
                <ProductUpdatesField
                  value={draft.productUpdatesAfter}
                  error={dateError}
                  unknown={threeWay}
                  onChange={(v) => setDraft((d) => ({ ...d, productUpdatesAfter: v }))}
                />
              )}
            </div>
          </fieldset>
        ))}
      </div>
      <div className="sticky bottom-0 mt-4 flex flex-wrap items-center gap-3 border-t border-border bg-background/95 py-3">
        <Button id="save-notification-settings" type="submit" variant="primary" disabled={!dirty || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save changes'}
        </Button>
        <Button
          onClick={() => {
            setDraft(saved);
            setFieldError(undefined);
            setDateError(undefined);
            setFormError(undefined);
            save.reset();
          }}
          disabled={!dirty || save.isPending}
        >
          Discard
        </Button>
        <span role="status" className="text-sm text-muted" data-testid="settings-status">
          {save.isSuccess && !dirty ? 'Saved.' : dirty ? 'Unsaved changes (Ctrl+S to save)' : ''}
        </span>
        {formError && (
          <p role="alert" className="w-full text-sm text-danger">
            {formError}
          </p>
        )}
      </div>
      {showHubError && (
        <ErrorPanel error={save.error} title="Could not save notification settings" onRetry={() => submit()} />
      )}
    </form>
  );
}
