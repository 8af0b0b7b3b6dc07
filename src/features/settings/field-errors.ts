import type { z } from 'zod';
import { HubApiError, HubRequestError } from '../../hub/errors.ts';

/** First message per top-level field of a failed zod parse. */
export function issuesByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}

/**
 * A hub 4xx (400, 403, 404, 409, 422…) or a request the client refused, naming one of `fields`:
 * shown next to that field. 401 and 429 are about the session or the rate, never a field.
 */
export function hubFieldError<F extends string>(
  error: unknown,
  fields: readonly F[],
): { field: F; message: string } | null {
  if (!(error instanceof HubApiError || error instanceof HubRequestError)) return null;
  if (
    error instanceof HubApiError &&
    (error.status < 400 || error.status >= 500 || error.status === 401 || error.status === 429)
  )
    return null;
  const named = (error.field ?? '').replace(/^(body|query)\./, '').split(/[.[]/)[0] ?? '';
  const message = error instanceof HubApiError ? error.hubMessage : (error.issues[0]?.message ?? error.message);
  const field = fields.find((f) => f === named) ?? fields.find((f) => message.includes(f));
  return field ? { field, message } : null;
}
