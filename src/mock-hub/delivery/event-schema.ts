import { z } from 'zod';
import { RepoId } from '../../hub/schemas/repo.ts';
import { discussionStatuses, webhookEventActions } from '../../webhooks/payload-schema.ts';

// Body of `POST /api/_mock/events` (x-mock-extension): an event the mock hub should deliver.

export const EVENT_SCOPES = ['repo', 'repo.content', 'repo.config', 'discussion', 'discussion.comment'] as const;

export const MockEventDiscussion = z.strictObject({
  num: z.number().int().nonnegative(),
  title: z.string().default('Untitled discussion'),
  isPullRequest: z.boolean().default(false),
  status: z.enum(discussionStatuses).default('open'),
  comment: z.strictObject({ content: z.string(), hidden: z.boolean().default(false) }).optional(),
});

export const MockEvent = z
  .strictObject({
    repo: RepoId,
    scope: z.enum(EVENT_SCOPES),
    action: z.enum(webhookEventActions),
    discussion: MockEventDiscussion.optional(),
  })
  .superRefine((e, ctx) => {
    if (e.scope.startsWith('discussion') && !e.discussion) {
      ctx.addIssue({ code: 'custom', path: ['discussion'], message: `scope ${e.scope} needs a discussion` });
    }
    if (e.scope === 'discussion.comment' && !e.discussion?.comment) {
      ctx.addIssue({
        code: 'custom',
        path: ['discussion', 'comment'],
        message: 'scope discussion.comment needs discussion.comment',
      });
    }
  });
export type MockEvent = z.infer<typeof MockEvent>;

/** The webhook domain an event belongs to: the part of its scope before the first dot. */
export function eventFamily(scope: string): 'repo' | 'discussion' {
  return scope.split('.')[0] === 'discussion' ? 'discussion' : 'repo';
}

export const MockEventResult = z.strictObject({
  /** Webhooks the event matched, with what each delivery targets (a URL or a job). */
  reached: z.array(z.strictObject({ webhookId: z.string(), target: z.string(), logId: z.string() })),
});
export type MockEventResult = z.infer<typeof MockEventResult>;
