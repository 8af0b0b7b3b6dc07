import type { ReactNode } from 'react';

/** Why a feature is not available here (plan or role), instead of a broken page. */
export function GatePanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div
      className="rounded-lg border border-warning-border bg-warning-soft p-4 text-sm text-accent-strong"
      data-testid="gate-panel"
    >
      <p className="font-semibold">{title}</p>
      <div className="mt-1">{children}</div>
    </div>
  );
}
