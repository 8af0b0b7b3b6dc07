import { StatusPill } from '../../components/ui/status-pill.tsx';
import { UnknownValuePill } from '../../components/ui/unreadable.tsx';
import type { WebhookDisabled } from '../../hub/schemas/index.ts';

const STATES = {
  enabled: {
    label: 'Enabled',
    className: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100',
    icon: '●',
  },
  disabled: {
    label: 'Disabled',
    className: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
    icon: '○',
  },
  suspended: {
    label: 'Suspended after failures',
    className: 'bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100',
    icon: '⚠',
  },
} as const;

export function webhookState(disabled: WebhookDisabled): keyof typeof STATES {
  if (disabled === 'suspended-after-failure') return 'suspended';
  return disabled ? 'disabled' : 'enabled';
}

/** Enabled, disabled by a person, or suspended by the hub after failed deliveries. */
export function StateBadge({ disabled }: { disabled: WebhookDisabled }) {
  // A state the real hub added after the spec: shown as it sent it.
  if (typeof disabled === 'string' && disabled !== 'suspended-after-failure')
    return <UnknownValuePill value={disabled} what="webhook state" />;
  const state = webhookState(disabled);
  const s = STATES[state];
  return (
    <StatusPill icon={s.icon} label={s.label} className={s.className} data-testid="webhook-state" data-state={state} />
  );
}
