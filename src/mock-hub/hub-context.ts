import type { AuditLog } from './audit/audit-log.ts';
import type { RepoFiles } from './files/repo-files.ts';
import type { HubEvents } from './hub-events.ts';
import type { Store } from './store/store.ts';

/** What route handlers (and later the delivery module) get: state, clock, derived services. */
export interface HubContext {
  store: Store;
  baseUrl: string;
  audit: AuditLog;
  events: HubEvents;
  files: RepoFiles;
}
