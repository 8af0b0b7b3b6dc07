import { z } from 'zod';
import { Id24 } from './common.ts';

/** An author entry of a paper; `user` is set once a hub user has claimed it. */
export const PaperAuthor = z.looseObject({
  _id: Id24,
  name: z.string(),
  hidden: z.boolean(),
  user: z.looseObject({ _id: Id24, user: z.string(), fullname: z.string(), avatarUrl: z.string() }).optional(),
});
export type PaperAuthor = z.infer<typeof PaperAuthor>;

/**
 * `GET /api/papers/{paperId}` (x-mock-extension on the real hub's path; subset of its fields).
 * Loose objects: the real hub sends many more fields, and the client must read its answers too.
 */
export const Paper = z.looseObject({
  id: z.string(),
  _id: Id24,
  title: z.string(),
  summary: z.string(),
  publishedAt: z.string(),
  authors: z.array(PaperAuthor),
});
export type Paper = z.infer<typeof Paper>;
