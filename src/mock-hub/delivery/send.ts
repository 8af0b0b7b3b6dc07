import {
  DELIVERY_RESPONSE_LIMIT_BYTES,
  type DeliveryFailure,
  type DeliveryResponse,
} from '../../hub/schemas/webhook-log.ts';
import { cutUtf8 } from './delivery-log.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;

export interface SendResult {
  /** HTTP status, or null when no response came (refused, timeout). */
  status: number | null;
  error: string | null;
  failure: DeliveryFailure | null;
  durationMs: number;
  /** Headers sent, unmasked (the log masks them). */
  requestHeaders: Record<string, string>;
  /** The start of the receiver's answer; null when none came. */
  response: DeliveryResponse | null;
}

function describe(err: unknown, timeoutMs: number): { error: string; failure: DeliveryFailure } {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return { error: `timeout after ${timeoutMs} ms`, failure: 'timeout' };
  const code = e?.cause?.code;
  if (code)
    return {
      error: `${code}: ${e.cause?.message ?? e.message ?? 'request failed'}`,
      failure: code === 'ECONNREFUSED' ? 'refused' : 'network',
    };
  return { error: e?.message ?? String(err), failure: 'network' };
}

/** Reads at most `limit + 1` bytes of the body (enough to know it was longer), then lets the rest go. */
async function readStart(res: Response, limit: number): Promise<{ bytes: Uint8Array; complete: boolean }> {
  const reader = res.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), complete: true };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) {
        complete = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body that breaks off (or times out) midway: what arrived is what the log keeps.
  } finally {
    if (!complete) await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, complete };
}

async function responseRecord(res: Response, limit: number): Promise<DeliveryResponse> {
  const { bytes, complete } = await readStart(res, limit);
  const { text, truncated } = cutUtf8(bytes, limit);
  const declared = Number(res.headers.get('content-length'));
  const total = complete ? bytes.length : Number.isSafeInteger(declared) && declared >= bytes.length ? declared : null;
  return {
    contentType: res.headers.get('content-type'),
    body: text,
    bodyBytes: total,
    bodyTruncated: truncated || !complete,
  };
}

/** POSTs the JSON body; never throws. Non-2xx is a status (failure `non-2xx`), not an error. */
export async function sendPayload(
  url: string,
  body: string,
  secret: string | undefined,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const t0 = performance.now();
  const requestHeaders: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'mock-hub-webhooks/1',
  };
  if (secret !== undefined) requestHeaders['x-webhook-secret'] = secret;
  const elapsed = () => Math.round(performance.now() - t0);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: requestHeaders,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const response = await responseRecord(res, DELIVERY_RESPONSE_LIMIT_BYTES);
    const failure = res.ok ? null : 'non-2xx';
    return {
      status: res.status,
      error: failure && `HTTP ${res.status}`,
      failure,
      durationMs: elapsed(),
      requestHeaders,
      response,
    };
  } catch (err) {
    return { status: null, ...describe(err, timeoutMs), durationMs: elapsed(), requestHeaders, response: null };
  }
}
