import { Button } from '../../components/ui/button.tsx';

/** "N new notifications": a live region that is always there, so screen readers hear the change. */
export function NewNotificationsBanner({ count, onShow }: { count: number; onShow(): void }) {
  return (
    <div role="status" aria-live="polite" className="min-w-0">
      {count > 0 && (
        <Button variant="primary" onClick={onShow} data-testid="new-notifications">
          {count} new notification{count === 1 ? '' : 's'} · Show
        </Button>
      )}
    </div>
  );
}
