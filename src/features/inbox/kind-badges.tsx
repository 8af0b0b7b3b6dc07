import type { NotificationView } from './notification-view.ts';

const kindStyle: Record<NotificationView['kind'], string> = {
  Paper: 'bg-violet-100 text-violet-900 dark:bg-violet-900/50 dark:text-violet-100',
  'Pull request': 'bg-info-soft text-info-strong',
  Discussion: 'bg-teal-100 text-teal-900 dark:bg-teal-900/50 dark:text-teal-100',
  Post: 'bg-orange-100 text-orange-900 dark:bg-orange-900/50 dark:text-orange-100',
  'Community blog': 'bg-pink-100 text-pink-900 dark:bg-pink-900/50 dark:text-pink-100',
};

const statusStyle: Record<NonNullable<NotificationView['status']>, string> = {
  draft: 'border-slate-400 text-soft',
  open: 'border-green-600 text-success dark:border-green-500',
  closed: 'border-red-600 text-danger dark:border-red-500',
  merged: 'border-purple-600 text-purple-800 dark:border-purple-400 dark:text-purple-300',
};

export function KindBadge({ kind }: { kind: NotificationView['kind'] }) {
  return (
    <span
      className={`inline-block w-28 shrink-0 rounded px-1.5 py-0.5 text-center text-xs font-medium ${kindStyle[kind]}`}
      data-testid="kind"
    >
      {kind}
    </span>
  );
}

export function StatusBadge({ status }: { status: NonNullable<NotificationView['status']> }) {
  return (
    <span
      className={`rounded-full border px-2 text-xs font-medium capitalize ${statusStyle[status]}`}
      data-testid="status"
    >
      {status}
    </span>
  );
}
