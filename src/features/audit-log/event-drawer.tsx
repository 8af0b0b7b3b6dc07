import { useEffect, useRef } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { DescriptionRow } from '../../components/ui/description-row.tsx';
import type { AuditLogEvent } from '../../hub/schemas/index.ts';

/** Everything an event carries; hub text is rendered as text. */
export function EventDrawer({ event, onClose }: { event: AuditLogEvent | null; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (event && !d.open) d.showModal();
    if (!event && d.open) d.close();
  }, [event]);
  const e = event;
  return (
    <dialog
      ref={ref}
      aria-labelledby="event-title"
      onClose={onClose}
      className="ml-auto mr-0 h-full max-h-none w-full max-w-lg bg-surface p-5 text-foreground shadow-xl backdrop:bg-slate-900/40"
      data-testid="event-drawer"
    >
      {e && (
        <>
          <div className="mb-3 flex items-start justify-between gap-3">
            <h2 id="event-title" className="font-mono text-base font-semibold break-all">
              {e.type}
            </h2>
            <Button variant="ghost" onClick={onClose} aria-label="Close event details">
              ✕
            </Button>
          </div>
          <dl className="text-sm">
            <DescriptionRow term="Message">
              <span data-testid="event-message">{e.message}</span>
            </DescriptionRow>
            <DescriptionRow term="Time">
              <time dateTime={e.createdAt}>{new Date(e.createdAt).toLocaleString('en')}</time>{' '}
              <span className="text-xs text-muted">({e.createdAt})</span>
            </DescriptionRow>
            <DescriptionRow term="Author">
              {e.author.user}{' '}
              <span className="text-xs text-muted">
                ({e.author.type}
                {e.author.deleted ? ', deleted' : ''})
              </span>
            </DescriptionRow>
            <DescriptionRow term="IP">{e.ip ?? '—'}</DescriptionRow>
            <DescriptionRow term="Location">
              {e.location ? (
                <>
                  {e.location.formatted}
                  {(e.location.city || e.location.country) && (
                    <span className="block text-xs text-muted">
                      {[e.location.city, e.location.country].filter(Boolean).join(', ')}
                    </span>
                  )}
                </>
              ) : (
                '—'
              )}
            </DescriptionRow>
            <DescriptionRow term="User agent">
              <span className="font-mono text-xs">{e.userAgent ?? '—'}</span>
            </DescriptionRow>
            <DescriptionRow term="Token">
              {e.token ? (
                <span data-testid="event-token">
                  {e.token.type} {e.token.id}
                  {e.token.role && ` · ${e.token.role}`}
                  {e.token.last4 && ` · …${e.token.last4}`}
                  {e.token.deleted && ' · deleted'}
                </span>
              ) : (
                '—'
              )}
            </DescriptionRow>
            <DescriptionRow term="OAuth app">
              {e.oauth ? `${e.oauth.name ?? 'Unnamed app'} (client ${e.oauth.clientId})` : '—'}
            </DescriptionRow>
            <DescriptionRow term="Event id">
              <span className="font-mono text-xs">{e._id}</span>
            </DescriptionRow>
            {e.data !== undefined && (
              <DescriptionRow term="Data">
                <pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-surface-muted p-2 text-xs">
                  {JSON.stringify(e.data, null, 2)}
                </pre>
              </DescriptionRow>
            )}
          </dl>
        </>
      )}
    </dialog>
  );
}
