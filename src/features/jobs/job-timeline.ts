import { isTerminalStage, type Job, type JobStage } from '../../hub/schemas/index.ts';
import { formatDuration } from './job-view.ts';

export type StepState = 'done' | 'current' | 'upcoming' | 'skipped';

export interface TimelineStep {
  key: 'scheduling' | 'running' | 'end';
  /** What the step is called: the stage it stands for, or the stage the job ended in. */
  title: string;
  stage: JobStage | null;
  at: string | null;
  state: StepState;
  /** How long it took, the job's message, retries. */
  notes: string[];
}

const END_TITLES: Partial<Record<JobStage, string>> = {
  COMPLETED: 'Completed',
  ERROR: 'Failed',
  CANCELED: 'Canceled',
  DELETED: 'Deleted',
};

/**
 * The three steps every job goes through (scheduled, running, ended) from what its record says:
 * which are behind it, which one it is in, and which it skipped (canceled before it ran).
 */
export function jobTimeline(job: Job): TimelineStep[] {
  const stage = job.status.stage;
  const ended = isTerminalStage(stage);
  const message = job.status.message ? [job.status.message] : [];
  const retries = job.retry
    ? [
        `retry ${job.retry}, ${job.status.failureCount ?? job.retry} failed attempt${(job.status.failureCount ?? job.retry) === 1 ? '' : 's'} so far`,
      ]
    : [];
  const scheduling: TimelineStep = {
    key: 'scheduling',
    title: 'Scheduled',
    stage: 'SCHEDULING',
    at: job.createdAt,
    state: stage === 'SCHEDULING' ? 'current' : 'done',
    notes: [
      ...(job.durations?.schedulingSecs !== undefined && job.startedAt
        ? [`waited ${formatDuration(job.durations.schedulingSecs)}`]
        : []),
      ...(stage === 'SCHEDULING' ? [...message, ...retries] : []),
    ],
  };
  const running: TimelineStep = {
    key: 'running',
    title: 'Running',
    stage: 'RUNNING',
    at: job.startedAt ?? null,
    state: stage === 'RUNNING' ? 'current' : job.startedAt ? 'done' : ended ? 'skipped' : 'upcoming',
    notes: [
      ...(job.durations?.runningSecs !== undefined && ended
        ? [`ran ${formatDuration(job.durations.runningSecs)}`]
        : []),
      ...(stage === 'RUNNING' ? [...message, ...retries] : []),
    ],
  };
  const end: TimelineStep = {
    key: 'end',
    title: ended ? (END_TITLES[stage] ?? stage) : 'Finished',
    stage: ended ? stage : null,
    at: job.finishedAt ?? null,
    state: ended ? 'done' : 'upcoming',
    notes: ended
      ? [
          ...message,
          ...(job.durations?.totalSecs !== undefined ? [`${formatDuration(job.durations.totalSecs)} in all`] : []),
        ]
      : [],
  };
  return [scheduling, running, end];
}
