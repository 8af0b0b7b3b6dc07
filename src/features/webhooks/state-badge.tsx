import { StatusPill } from '../../components/ui/status-pill.tsx';
import { UnknownValuePill } from '../../components/ui/unreadable.tsx';
import type { WebhookDisabled } from '../../hub/schemas/index.ts';

const STATES = {
  enabled: {
    label: 'Enabled',
    tone: 'success',
    icon: '●',
  },
  disabled: {
    label: 'Disabled',
    tone: 'neutral',
    icon: '○',
  },
  suspended: {
    label: 'Suspended after failures',
    tone: 'danger',
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
  return <StatusPill icon={s.icon} label={s.label} tone={s.tone} data-testid="webhook-state" data-state={state} />;
}
