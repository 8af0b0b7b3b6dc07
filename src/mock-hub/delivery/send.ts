export const DELIVERY_TIMEOUT_MS = 10_000;

export interface SendResult {
  /** HTTP status, or null when no response came (refused, timeout). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
  if (e?.cause?.code) return `${e.cause.code}: ${e.cause.message ?? e.message ?? 'request failed'}`;
  return e?.message ?? String(err);
}

/** POSTs the JSON body; never throws. Non-2xx is a status, not an error. */
export async function sendPayload(url: string, body: string, secret: string | undefined, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<SendResult> {
  const t0 = performance.now();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'mock-hub-webhooks/1' };
  if (secret !== undefined) headers['x-webhook-secret'] = secret;
  try {
    const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    // The body is drained so the socket goes back to the pool; its content is not used.
    await res.arrayBuffer().catch(() => undefined);
    const error = res.ok ? null : `HTTP ${res.status}`;
    return { status: res.status, error, durationMs: Math.round(performance.now() - t0) };
  } catch (err) {
    return { status: null, error: describe(err, timeoutMs), durationMs: Math.round(performance.now() - t0) };
  }
}
