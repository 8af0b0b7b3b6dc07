import type { z } from 'zod';

export type GroupFieldErrors = { name?: string; description?: string };

/** Zod issues on name/description, keyed by field, first message wins. */
export function groupFieldErrors(issues: ReadonlyArray<z.core.$ZodIssue>): GroupFieldErrors {
  const out: GroupFieldErrors = {};
  for (const i of issues) {
    const f = i.path[0];
    if ((f === 'name' || f === 'description') && !out[f]) out[f] = i.message;
  }
  return out;
}
