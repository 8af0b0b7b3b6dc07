import { StatusPill, type StatusTone } from '../../components/ui/status-pill.tsx';
import { UnknownValuePill } from '../../components/ui/unreadable.tsx';
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

/** A stage the real hub added after the spec (`UPDATING`...) reads as itself. */
const known = (stage: string) => (Object.hasOwn(STAGES, stage) ? STAGES[stage as JobStage] : undefined);

export const stageLabel = (stage: JobStage) => known(stage)?.label ?? stage;

/** A job's stage as a colored pill with an icon; one this console does not know as a neutral pill with its value. */
export function StageBadge({ stage }: { stage: JobStage }) {
  const s = known(stage);
  if (!s) return <UnknownValuePill value={stage} what="job stage" />;
  return <StatusPill icon={s.icon} label={s.label} tone={s.tone} data-testid="job-stage" data-stage={stage} />;
}
