/// <reference lib="webworker" />
// Fetches, parses and validates the audit export with the hub client off the main thread, so
// the page stays responsive while 100,000 events are checked. One worker per export.
import { createHubClient } from '../../hub/client.ts';
import { toTransferred } from './error-transfer.ts';
import type { ExportMessage, ExportRequest } from './export-protocol.ts';
import { previewingFetch } from './previewing-fetch.ts';

const post = (m: ExportMessage) => self.postMessage(m);

self.onmessage = async (e: MessageEvent<ExportRequest>) => {
  const { baseUrl, token, org, q } = e.data;
  const client = createHubClient({
    baseUrl,
    token,
    fetch: previewingFetch((_, events) => post({ type: 'preview', events })),
  });
  try {
    post({ type: 'done', result: await client.exportAuditLog(org, q ? { q } : {}) });
  } catch (err) {
    post({ type: 'error', error: toTransferred(err) });
  }
};
