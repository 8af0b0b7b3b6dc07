import { z } from 'zod';

export const WatchItem = z.strictObject({ id: z.string().min(1), type: z.enum(['org', 'user', 'repo']) });
export type WatchItem = z.infer<typeof WatchItem>;

export const WatchPatch = z.strictObject({
  add: z.array(WatchItem).default([]),
  delete: z.array(WatchItem).default([]),
});
export type WatchPatch = z.input<typeof WatchPatch>;

/** Current watch list (x-mock-extension). */
export const WatchList = z.strictObject({ watched: z.array(WatchItem) });
export type WatchList = z.infer<typeof WatchList>;
