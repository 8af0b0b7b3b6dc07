import type { ReactNode } from 'react';

/** One term and its value in a `<dl>`: the term in a fixed column, the value wrapping beside it. */
export function DescriptionRow({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 border-b border-border py-1.5">
      <dt className="break-words text-muted">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}
