import type { FetchLike } from '../../hub/transport.ts';
import { AuditLogEvent } from '../../hub/schemas/index.ts';
import { tolerantParse } from '../../hub/tolerant-response.ts';
import { createArrayPrefixScanner } from './array-prefix-scanner.ts';

/** Enough rows to fill the table's viewport several times over. */
export const PREVIEW_ROWS = 100;

/**
 * A fetch for the hub client that passes the audit export through untouched while reading its
 * first events as they arrive. Parsing and validating 100,000 events takes seconds on a slow
 * machine; the newest events can be shown long before that. Each preview event is validated as the
 * full export is (tolerantParse of the same schema), and the client still parses and validates the whole body.
 */
export function previewingFetch(
  onPreview: (url: string, events: AuditLogEvent[]) => void,
  base: FetchLike = (i, init) => fetch(i, init),
): FetchLike {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.ok || !res.body || !new URL(input, location.href).pathname.endsWith('/audit-log/export')) return res;
    const scanner = createArrayPrefixScanner(PREVIEW_ROWS);
    const decoder = new TextDecoder();
    let sent = false;
    const publish = () => {
      if (sent || scanner.items().length === 0) return;
      sent = true;
      const events: AuditLogEvent[] = [];
      for (const text of scanner.items()) {
        const checked = tolerantParse(AuditLogEvent, JSON.parse(text));
        // An event that cannot be read is left out of the preview: the full parse shows it as an unreadable row.
        if (checked.success) events.push(checked.data);
      }
      onPreview(input, events);
    };
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          controller.enqueue(chunk);
          if (sent) return;
          scanner.push(decoder.decode(chunk, { stream: true }));
          if (scanner.done) publish();
        },
        flush: publish,
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
