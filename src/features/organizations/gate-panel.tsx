import type { ReactNode } from 'react';

/** Why a feature is not available here (plan or role), instead of a broken page. */
export function GatePanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
      data-testid="gate-panel"
    >
      <p className="font-semibold">{title}</p>
      <div className="mt-1">{children}</div>
    </div>
  );
}
