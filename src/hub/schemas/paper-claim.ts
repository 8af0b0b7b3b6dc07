import { z } from 'zod';
import { Hex24AnyCase } from './common.ts';

export const PaperClaim = z.strictObject({
  paperId: z.string().min(1, 'paperId is required'),
  claimAuthorId: Hex24AnyCase.optional(),
  targetUserId: Hex24AnyCase.optional(),
});
export type PaperClaim = z.infer<typeof PaperClaim>;
export const PaperClaimResult = z.strictObject({ ok: z.boolean(), claimedPaperId: z.string() });
export type PaperClaimResult = z.infer<typeof PaperClaimResult>;
