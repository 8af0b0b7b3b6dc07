import { StatusPill } from '../../components/ui/status-pill.tsx';
import type { JobStage } from '../../hub/schemas/index.ts';

const STAGES: Record<JobStage, { label: string; icon: string; className: string }> = {
  SCHEDULING: {
    label: 'Scheduling',
    icon: '◷',
    className: 'bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100',
  },
  RUNNING: {
    label: 'Running',
    icon: '▶',
    className: 'bg-amber-100 text-amber-950 dark:bg-amber-900/50 dark:text-amber-100',
  },
  COMPLETED: {
    label: 'Completed',
    icon: '✓',
    className: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100',
  },
  ERROR: { label: 'Error', icon: '✕', className: 'bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100' },
  CANCELED: {
    label: 'Canceled',
    icon: '⊘',
    className: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
  },
  DELETED: {
    label: 'Deleted',
    icon: '−',
    className: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
  },
};

export const stageLabel = (stage: JobStage) => STAGES[stage].label;

/** A job's stage as a colored pill with an icon. */
export function StageBadge({ stage }: { stage: JobStage }) {
  const s = STAGES[stage];
  return (
    <StatusPill icon={s.icon} label={s.label} className={s.className} data-testid="job-stage" data-stage={stage} />
  );
}
