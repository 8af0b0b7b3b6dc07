import { randomBytes } from 'node:crypto';
import { AuditLogEvent, type AuditEventType } from '../../hub/schemas/index.ts';
import type { AuthInfo } from '../auth/authenticate.ts';
import type { HubState } from '../store/state-schema.ts';

/** Appends an audit event caused by a mutation (validated here, as the seed is in its test). */
export function recordAuditEvent(
  state: HubState,
  org: string,
  auth: AuthInfo,
  now: Date,
  type: AuditEventType,
  message: string,
  data?: unknown,
): void {
  const event = AuditLogEvent.parse({
    _id: randomBytes(12).toString('hex'),
    createdAt: now.toISOString(),
    type,
    message,
    ...(data === undefined ? {} : { data }),
    author: { _id: auth.user.id, user: auth.user.name, avatarUrl: auth.user.avatarUrl, type: 'user' },
    token: { type: 'access_token', id: auth.token.id, role: auth.token.role, deleted: false },
  });
  (state.auditExtra[org] ??= []).unshift(event);
}
