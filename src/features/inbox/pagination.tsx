import { Button } from '../../components/ui/button.tsx';
import { NOTIFICATIONS_PAGE_SIZE } from '../../hub/schemas/index.ts';

export function Pagination({ page, total, onPage }: { page: number; total: number; onPage(p: number): void }) {
  const pages = Math.max(1, Math.ceil(total / NOTIFICATIONS_PAGE_SIZE));
  if (pages <= 1 && page === 0) return null;
  const from = total === 0 ? 0 : page * NOTIFICATIONS_PAGE_SIZE + 1;
  const to = Math.min(total, (page + 1) * NOTIFICATIONS_PAGE_SIZE);
  return (
    <nav aria-label="Pages" className="mt-3 flex items-center justify-between text-sm">
      <span className="text-muted" data-testid="page-range">
        {from}–{to} of {total} · page {page + 1} of {pages}
      </span>
      <span className="flex gap-2">
        <Button onClick={() => onPage(page - 1)} disabled={page === 0}>
          ← Previous
        </Button>
        <Button onClick={() => onPage(page + 1)} disabled={page + 1 >= pages}>
          Next →
        </Button>
      </span>
    </nav>
  );
}
