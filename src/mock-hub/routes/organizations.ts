import { z } from 'zod';
import { AuditLogExport, AuditLogQuery, EmptyObject, TokenRevoke } from '../../hub/schemas/index.ts';
import { recordAuditEvent } from '../audit/record-audit-event.ts';
import { ENTERPRISE, TEAM_OR_HIGHER } from '../auth/org-access.ts';
import { notFound } from '../http/http-error.ts';
import { defineRoute } from '../http/route.ts';
import { findToken } from '../seed/users.ts';

const OrgParams = z.strictObject({ name: z.string() });

/**
 * Revokes a member token's access to this org only (stored by token id). Unknown tokens and
 * tokens of non-members are 404; revoking an already revoked token is a no-op.
 */
const revoke = defineRoute({
  method: 'post',
  path: '/api/organizations/{name}/settings/tokens/revoke',
  tag: 'orgs',
  auth: 'org',
  gate: { plans: ENTERPRISE, planMessage: 'Revoking member tokens needs an Enterprise plan', admin: true },
  summary: "Revoke a member token's access to the organization",
  params: OrgParams,
  body: TokenRevoke,
  response: EmptyObject,
  handler: ({ params, body, auth, org, hub }) => {
    const token = findToken(body.token);
    if (!token || !(token.user in org.members))
      throw notFound(`body.token: no access token of a member of "${params.name}" matches`);
    const state = hub.store.state;
    const revoked = (state.revokedTokens[params.name] ??= []);
    if (!revoked.includes(token.id)) {
      revoked.push(token.id);
      recordAuditEvent(
        state,
        params.name,
        auth,
        hub.store.now(),
        'org.token_approval.authorization_request.revoked',
        `${auth.user.name} revoked a token of ${token.user}`,
        { tokenOwner: token.user },
      );
    }
    return {};
  },
});

/**
 * Audit-log export: newest first, terms of `q` ANDed, at most the last 100,000 matching events.
 * The body is pre-serialized (see audit/audit-log.ts), so it is not re-validated per request:
 * the seeded history is validated in audit-history.test.ts and added events when recorded.
 */
const exportAudit = defineRoute({
  method: 'get',
  path: '/api/organizations/{name}/audit-log/export',
  tag: 'orgs',
  auth: 'org',
  gate: { plans: TEAM_OR_HIGHER, planMessage: 'Audit logs need a Team or Enterprise plan', admin: true },
  summary: 'Export the audit log as a JSON file (newest first, at most 100,000 events)',
  description:
    'q: space-separated terms author:<name>, ip:<address>, type:<audit event type>, all of which must match. Needs the org admin role.',
  params: OrgParams,
  query: AuditLogQuery,
  response: AuditLogExport,
  raw: { contentType: 'application/json', validatedBy: 'src/mock-hub/audit/audit-history.test.ts' },
  responseHeaders: { 'Content-Disposition': 'attachment; filename="<org>-audit-log-<YYYY-MM-DD>.json"' },
  handler: ({ params, query, hub }) => {
    const body = hub.audit.exportBody(params.name, query.q, hub.store.state.auditExtra[params.name] ?? []);
    const date = hub.store.now().toISOString().slice(0, 10);
    return new Response(body, {
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(body.byteLength),
        'Content-Disposition': `attachment; filename="${params.name}-audit-log-${date}.json"`,
      },
    });
  },
});

export const organizationRoutes = [revoke, exportAudit];
