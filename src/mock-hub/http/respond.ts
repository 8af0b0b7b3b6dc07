import type { Context } from 'hono';

/** Header values must be Latin-1 without control characters. */
export function headerSafe(message: string): string {
  return message.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);
}

export function errorResponse(
  c: Context,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  c.header('X-Error-Message', headerSafe(message));
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  return c.json({ error: message }, status as 400);
}
