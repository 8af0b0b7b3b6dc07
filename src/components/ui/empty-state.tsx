import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div
      className="rounded-lg border border-dashed border-border-strong p-8 text-center text-sm text-muted"
      data-testid="empty-state"
    >
      <p className="font-medium text-foreground">{title}</p>
      {children && <div className="mt-1">{children}</div>}
    </div>
  );
}
