import { z } from 'zod';
import { Id24, Timestamp } from './common.ts';

export const AUDIT_EVENT_TYPES = [
  'billing.update_payment_method',
  'billing.create_customer',
  'billing.remove_payment_method',
  'billing.aws_add',
  'billing.aws_remove',
  'billing.gcp_add',
  'billing.gcp_remove',
  'billing.marketplace_approve',
  'billing.cancel_subscription',
  'billing.renew_subscription',
  'billing.start_subscription',
  'billing.un_cancel_subscription',
  'billing.update_subscription',
  'billing.update_subscription_plan',
  'collection.create',
  'collection.delete',
  'collection.update_resource_group',
  'org.add_user',
  'org.change_role',
  'org.create',
  'org.delete',
  'org.restore',
  'org.invite_user',
  'org.invite.accept',
  'org.invite.email',
  'org.join.from_domain',
  'org.join.automatic',
  'org.leave',
  'org.remove_user',
  'org.rename',
  'org.rotate_token',
  'org.sso_login',
  'org.sso_join',
  'org.update_join_settings',
  'org.update_settings',
  'org.settings.regions',
  'org.settings.profile',
  'org.settings.resource_groups',
  'org.settings.publisher_gating',
  'org.settings.inference_providers',
  'org.settings.inference_providers.keys.add',
  'org.settings.inference_providers.keys.remove',
  'org.settings.inference_providers.usage',
  'org.settings.sso',
  'org.settings.sso.enable',
  'org.settings.sso.disable',
  'org.settings.security.repo_visibility',
  'org.settings.security.2fa.enable',
  'org.settings.security.2fa.disable',
  'org.settings.security.auto_join.enable',
  'org.settings.security.auto_join.disable',
  'org.settings.security.members_privacy.enable',
  'org.settings.security.members_privacy.disable',
  'org.settings.network',
  'org.settings.network.ip_restriction.enable',
  'org.settings.network.ip_restriction.disable',
  'org.settings.network.auth_enforcement.enable',
  'org.settings.network.auth_enforcement.disable',
  'org.token_approval.enabled',
  'org.token_approval.disabled',
  'org.token_approval.authorization_request',
  'org.token_approval.authorization_request.authorized',
  'org.token_approval.authorization_request.revoked',
  'org.token_approval.authorization_request.denied',
  'org.custom_role.create',
  'org.custom_role.update',
  'org.custom_role.delete',
  'repo.add_secrets',
  'repo.remove_secrets',
  'repo.add_secret',
  'repo.update_secret',
  'repo.remove_secret',
  'repo.create',
  'repo.delete',
  'repo.disable',
  'repo.removeDisable',
  'repo.duplication',
  'repo.delete_doi',
  'repo.move',
  'repo.update_resource_group',
  'repo.update_settings',
  'repo.add_variable',
  'repo.update_variable',
  'repo.remove_variable',
  'repo.add_variables',
  'repo.remove_variables',
  'repo.delete_lfs_file',
  'repo.add_trusted_publisher',
  'repo.remove_trusted_publisher',
  'spaces.add_storage',
  'spaces.remove_storage',
  'spaces.set_volumes',
  'spaces.remove_volumes',
  'spaces.update_hardware',
  'spaces.update_sleep_time',
  'resource_group.create',
  'resource_group.add_users',
  'resource_group.remove_users',
  'resource_group.change_role',
  'resource_group.settings',
  'resource_group.delete',
  'jobs.create',
  'jobs.cancel',
  'jobs.update_labels',
  'scheduled_job.create',
  'scheduled_job.delete',
  'scheduled_job.resume',
  'scheduled_job.suspend',
  'scheduled_job.run',
  'scheduled_job.update_schedule',
  'scheduled_job.update_labels',
  'org.service_account.create',
  'org.service_account.delete',
  'org.service_account.token.create',
  'org.service_account.token.delete',
  'org.service_account.token.rotate',
  'org.service_account.token.update',
  'oauth.token',
] as const;
export const AuditEventType = z.enum(AUDIT_EVENT_TYPES);
export type AuditEventType = z.infer<typeof AuditEventType>;

export const AuditLogEvent = z.strictObject({
  _id: Id24,
  createdAt: Timestamp,
  type: AuditEventType,
  data: z.unknown().optional(),
  message: z.string(),
  ip: z.string().optional(),
  location: z
    .strictObject({ formatted: z.string(), country: z.string().optional(), city: z.string().optional() })
    .optional(),
  userAgent: z.string().optional(),
  author: z.strictObject({
    _id: Id24,
    user: z.string(),
    avatarUrl: z.string(),
    type: z.enum(['user', 'system']),
    deleted: z.boolean().optional(),
  }),
  token: z
    .strictObject({
      type: z.literal('access_token'),
      id: z.string(),
      role: z.enum(['read', 'write', 'fineGrained']).optional(),
      last4: z.string().optional(),
      deleted: z.boolean(),
    })
    .optional(),
  oauth: z.strictObject({ clientId: z.string(), name: z.string().optional() }).optional(),
});
export type AuditLogEvent = z.infer<typeof AuditLogEvent>;
export const AuditLogExport = z.array(AuditLogEvent);

export const AUDIT_EXPORT_LIMIT = 100_000;

export const AuditQueryTerm = z.discriminatedUnion('key', [
  z.strictObject({ key: z.literal('author'), value: z.string().min(1) }),
  z.strictObject({ key: z.literal('ip'), value: z.string().min(1) }),
  z.strictObject({ key: z.literal('type'), value: AuditEventType }),
]);
export type AuditQueryTerm = z.infer<typeof AuditQueryTerm>;

/**
 * `q` is one or more space-separated `key:value` terms (author, ip, type), all of which must
 * match. The spec shows single terms; combining them is what a filter builder needs.
 */
export const AuditLogQuery = z.strictObject({
  q: z
    .string()
    .max(1000)
    .optional()
    .superRefine((q, ctx) => {
      if (q === undefined) return;
      for (const raw of q.trim().split(/\s+/).filter(Boolean)) {
        const term = parseAuditTerm(raw);
        if (!term.success)
          ctx.addIssue({
            code: 'custom',
            message: `q: "${raw}" is not author:<name>, ip:<address> or type:<audit event type>`,
          });
      }
    }),
});
export type AuditLogQuery = z.input<typeof AuditLogQuery>;

function parseAuditTerm(raw: string) {
  const i = raw.indexOf(':');
  return AuditQueryTerm.safeParse(i > 0 ? { key: raw.slice(0, i), value: raw.slice(i + 1) } : { key: raw });
}

/** Parses a valid `q` into its terms (call after AuditLogQuery validated it). */
export function parseAuditQuery(q: string | undefined): AuditQueryTerm[] {
  if (!q) return [];
  return q
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((raw) => {
      const r = parseAuditTerm(raw);
      return r.success ? [r.data] : [];
    });
}

export function formatAuditQuery(terms: AuditQueryTerm[]): string {
  return terms.map((t) => `${t.key}:${t.value}`).join(' ');
}
