import { z } from 'zod';
import { Timestamp } from './common.ts';

export const NOTIFICATION_FLAGS = [
  'announcements',
  'arxiv_paper_activity',
  'daily_papers_digest',
  'discussions_participating',
  'discussions_watched',
  'gated_user_access_request',
  'inference_endpoint_status',
  'launch_autonlp',
  'launch_spaces',
  'launch_prepaid_credits',
  'launch_training_cluster',
  'org_request',
  'org_suggestions',
  'org_verified_suggestions',
  'org_suggestions_to_create',
  'posts_participating',
  'user_follows',
  'secret_detected',
  'web_discussions_participating',
  'web_discussions_watched',
  'web_posts_participating',
  'api_inference_sunset',
  'locked_out',
] as const;
export type NotificationFlag = (typeof NOTIFICATION_FLAGS)[number];

const flagShape = Object.fromEntries(NOTIFICATION_FLAGS.map((f) => [f, z.boolean()])) as Record<
  NotificationFlag,
  z.ZodBoolean
>;

/** Current flags (read endpoint, x-mock-extension): every flag present. */
export const NotificationSettings = z.strictObject({
  notifications: z.strictObject({ ...flagShape, product_updates_after: Timestamp.optional() }),
  prepaidAmount: z.string().max(24).optional(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const NotificationSettingsPatch = z
  .strictObject({
    notifications: z.strictObject({ ...flagShape, product_updates_after: Timestamp }).partial(),
    prepaidAmount: z.string().min(1).max(24, 'prepaidAmount must be at most 24 characters').optional(),
  })
  .superRefine((body, ctx) => {
    if (body.notifications.launch_prepaid_credits === true && body.prepaidAmount === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['prepaidAmount'],
        message: 'prepaidAmount is required when enabling launch_prepaid_credits',
      });
    }
    if (body.prepaidAmount !== undefined && body.notifications.launch_prepaid_credits !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['prepaidAmount'],
        message: 'prepaidAmount is only accepted together with launch_prepaid_credits: true',
      });
    }
  });
export type NotificationSettingsPatch = z.input<typeof NotificationSettingsPatch>;
