import { StatusPill } from '../../components/ui/status-pill.tsx';
import { UnknownValuePill } from '../../components/ui/unreadable.tsx';
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

/** A stage the real hub added after the spec (`UPDATING`...) reads as itself. */
const known = (stage: string) => (Object.hasOwn(STAGES, stage) ? STAGES[stage as JobStage] : undefined);

export const stageLabel = (stage: JobStage) => known(stage)?.label ?? stage;

/** A job's stage as a colored pill with an icon; one this console does not know as a neutral pill with its value. */
export function StageBadge({ stage }: { stage: JobStage }) {
  const s = known(stage);
  if (!s) return <UnknownValuePill value={stage} what="job stage" />;
  return (
    <StatusPill icon={s.icon} label={s.label} className={s.className} data-testid="job-stage" data-stage={stage} />
  );
}
