import type { AuditLogExportResult } from '../../hub/client.ts';
import { HubNetworkError } from '../../hub/errors.ts';
import type { AuditLogEvent } from '../../hub/schemas/index.ts';
import { fromTransferred } from './error-transfer.ts';
import type { ExportMessage, ExportRequest } from './export-protocol.ts';

/** Runs one export in a worker; aborting terminates the worker (and its request). */
export function exportInWorker(
  req: ExportRequest,
  opts: { signal?: AbortSignal; onPreview?: (events: AuditLogEvent[]) => void },
): Promise<AuditLogExportResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./export.worker.ts', import.meta.url), { type: 'module', name: 'audit-export' });
    const endpoint = `GET /api/organizations/${encodeURIComponent(req.org)}/audit-log/export`;
    const finish = () => {
      worker.terminate();
      opts.signal?.removeEventListener('abort', abort);
    };
    const abort = () => {
      finish();
      reject(new HubNetworkError(endpoint, 'aborted', ''));
    };
    if (opts.signal?.aborted) return abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    worker.onmessage = (e: MessageEvent<ExportMessage>) => {
      const m = e.data;
      if (m.type === 'preview') return opts.onPreview?.(m.events);
      finish();
      if (m.type === 'done') resolve(m.result);
      else reject(fromTransferred(m.error));
    };
    worker.onerror = (e) => {
      finish();
      reject(new Error(`The audit export worker failed: ${e.message}`));
    };
    worker.postMessage(req);
  });
}
