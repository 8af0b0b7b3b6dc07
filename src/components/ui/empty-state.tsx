import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div
      className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300"
      data-testid="empty-state"
    >
      <p className="font-medium text-slate-900 dark:text-slate-100">{title}</p>
      {children && <div className="mt-1">{children}</div>}
    </div>
  );
}
