// The checks a delivery passes before anything runs or is stored: its JSON nests no deeper than a
// page can show, parses, and is a webhook payload (an `event` and a `repo` object).
import { nestsDeeperThan } from './json-depth.ts';
import { receivedWebhookPayloadSchema, type ReceivedWebhookPayload } from './payload-schema.ts';

/** Hub payloads are a few KB; anything far larger is not one. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;
/** Hub payloads nest 4 levels; rendering a payload recurses once per level. */
export const MAX_PAYLOAD_DEPTH = 128;

export type ReadPayload =
  | { ok: true; payload: ReceivedWebhookPayload }
  | { ok: false; status: 400 | 422; body: { error: string; issues?: unknown } };

export function readPayload(text: string): ReadPayload {
  if (nestsDeeperThan(text, MAX_PAYLOAD_DEPTH))
    return {
      ok: false,
      status: 422,
      body: { error: `Request body nests arrays and objects deeper than the limit of ${MAX_PAYLOAD_DEPTH} levels.` },
    };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, body: { error: 'Request body is not valid JSON.' } };
  }
  const parsed = receivedWebhookPayloadSchema.safeParse(body);
  if (!parsed.success)
    return {
      ok: false,
      status: 422,
      body: {
        error: 'Request body is not a webhook payload: it needs an "event" object and a "repo" object.',
        issues: parsed.error.issues,
      },
    };
  return { ok: true, payload: parsed.data };
}
