import type { AuditLogExportResult } from '../../hub/client.ts';
import type { AuditLogEvent } from '../../hub/schemas/index.ts';
import type { TransferredError } from './error-transfer.ts';

export interface ExportRequest {
  baseUrl: string;
  token: string;
  org: string;
  q: string;
}

export type ExportMessage =
  | { type: 'preview'; events: AuditLogEvent[] }
  | { type: 'done'; result: AuditLogExportResult }
  | { type: 'error'; error: TransferredError };
