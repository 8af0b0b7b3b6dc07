import { StatusPill, type StatusTone } from '../../components/ui/status-pill.tsx';
import type { JobStage } from '../../hub/schemas/index.ts';

const STAGES: Record<JobStage, { label: string; icon: string; tone: StatusTone }> = {
  SCHEDULING: {
    label: 'Scheduling',
    icon: '◷',
    tone: 'info',
  },
  RUNNING: {
    label: 'Running',
    icon: '▶',
    tone: 'accent',
  },
  COMPLETED: {
    label: 'Completed',
    icon: '✓',
    tone: 'success',
  },
  ERROR: { label: 'Error', icon: '✕', tone: 'danger' },
  CANCELED: {
    label: 'Canceled',
    icon: '⊘',
    tone: 'neutral',
  },
  DELETED: {
    label: 'Deleted',
    icon: '−',
    tone: 'neutral',
  },
};

export const stageLabel = (stage: JobStage) => STAGES[stage].label;

/** A job's stage as a colored pill with an icon. */
export function StageBadge({ stage }: { stage: JobStage }) {
  const s = STAGES[stage];
  return <StatusPill icon={s.icon} label={s.label} tone={s.tone} data-testid="job-stage" data-stage={stage} />;
}
