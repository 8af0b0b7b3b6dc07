import type { z } from 'zod';

export type Where = 'path' | 'query' | 'body' | 'response';

function fieldPath(where: Where, path: readonly PropertyKey[]): string {
  let out: string = where;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

function describe(where: Where, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `${fieldPath(where, issue.path)}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined'))
    return `${fieldPath(where, issue.path)}: is required`;
  return `${fieldPath(where, issue.path)}: ${issue.message}`;
}

/** One line naming each offending field, e.g. `body.discussionIds[0]: must be 24 lowercase hexadecimal characters`. */
export function zodMessage(where: Where, error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((i) => describe(where, i));
  if (error.issues.length > 3) parts.push(`and ${error.issues.length - 3} more`);
  return parts.join('; ');
}
