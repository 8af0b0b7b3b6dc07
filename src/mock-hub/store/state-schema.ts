import { z } from 'zod';
import {
  AuditLogEvent,
  Job,
  McpSettings,
  Notification,
  NotificationSettings,
  Paper,
  RepoName,
  RepoType,
  ResourceGroup,
  Timestamp,
  Visibility,
  WatchItem,
  Webhook,
  WebhookDelivery,
  WebhookJobRequest,
} from '../../hub/schemas/index.ts';

/** `mentioned` drives the `mention=mentions` filter; the wire notification has no such field. */
export const StoredNotification = z.strictObject({ notification: Notification, mentioned: z.boolean() });
export type StoredNotification = z.infer<typeof StoredNotification>;

/** `storage` is in bytes. */
export const StoredRepo = z.strictObject({
  id: RepoName,
  type: RepoType,
  owner: z.string(),
  visibility: Visibility,
  storage: z.number().int().nonnegative(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  likes: z.number().int().nonnegative(),
  downloads: z.number().int().nonnegative(),
});
export type StoredRepo = z.infer<typeof StoredRepo>;

/**
 * `jobRequest` keeps the fields of the create request that the response shape drops (arch,
 * attempts, volumes, expose, ssh, secret values) so job deliveries can build the Job and an update
 * that leaves `job` out keeps all of it.
 */
export const StoredWebhook = z.strictObject({
  owner: z.string(),
  webhook: Webhook,
  jobRequest: WebhookJobRequest.optional(),
});
export type StoredWebhook = z.infer<typeof StoredWebhook>;

export const HubState = z.strictObject({
  version: z.literal(1),
  notifications: z.record(z.string(), z.array(StoredNotification)),
  notificationSettings: z.record(z.string(), NotificationSettings),
  watch: z.record(z.string(), z.array(WatchItem)),
  mcp: z.record(z.string(), McpSettings),
  papers: z.array(Paper),
  repos: z.array(StoredRepo),
  webhooks: z.array(StoredWebhook),
  /** Delivery log per webhook id, newest first, bounded (filled by the delivery module): what was sent (payloads kept for replay) and answered. */
  webhookLogs: z.record(z.string(), z.array(WebhookDelivery)),
  /** Jobs per namespace (user or org), newest first. */
  jobs: z.record(z.string(), z.array(Job)),
  resourceGroups: z.record(z.string(), z.array(ResourceGroup)),
  /** Token ids (never raw tokens) revoked per org. */
  revokedTokens: z.record(z.string(), z.array(z.string())),
  /** Audit events produced by mutations, newest first; the seeded history is regenerated, not stored. */
  auditExtra: z.record(z.string(), z.array(AuditLogEvent)),
});
export type HubState = z.infer<typeof HubState>;
