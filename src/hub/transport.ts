import type { z } from 'zod';
import { HubApiError, HubNetworkError, HubRequestError, HubSchemaError, redactSecrets } from './errors.ts';
import { toQueryString } from './query-string.ts';
import { retryAfterMs } from './retry-after.ts';
import { issuesOf, readableFields, tolerantParse } from './tolerant-response.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface TransportOptions {
  baseUrl: string;
  token: string;
  fetch?: FetchLike;
  /** Retries after a 429 (not counting the first try). */
  maxRetries?: number;
  /** Per attempt; 0 disables the timeout. */
  timeoutMs?: number;
  /** A 429 asking for a longer wait than this fails at once instead of hanging the caller. */
  maxRetryDelayMs?: number;
}

export interface RequestSpec<S extends z.ZodType> {
  method: HttpMethod;
  /** Already encoded (see `encodePath`). */
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  response: S;
  signal?: AbortSignal;
}

export interface StreamSpec {
  /** Already encoded (see `encodePath`). */
  path: string;
  query?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface HubResponse<T> {
  data: T;
  headers: Headers;
  text: string;
}

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;
const BACKOFF_BASE_MS = 500;

export const toIssues = issuesOf;

/** Parses a request body/query with its schema; throws HubRequestError (nothing is sent). */
export function validateRequest<S extends z.ZodType>(schema: S, value: unknown, endpoint: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new HubRequestError(endpoint, toIssues(result.error));
  return result.data;
}

/** `/api/x/${a}/y` with every interpolated segment percent-encoded; empty segments are refused. */
export function encodePath(endpoint: string, params: Record<string, string>, template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value.length === 0) {
      throw new HubRequestError(endpoint, [{ path: name, message: `${name} must be a non-empty string` }]);
    }
    return encodeURIComponent(value);
  });
}

export function createTransport(options: TransportOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const token = options.token;
  const redact = (text: string) => redactSecrets(text, token);

  function authHeaders(accept: string): Record<string, string> {
    const headers: Record<string, string> = { Accept: accept };
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  function fetchFailure(
    endpoint: string,
    cause: unknown,
    signal: AbortSignal | undefined,
    timeout: AbortSignal | undefined,
  ) {
    if (signal?.aborted) return new HubNetworkError(endpoint, 'aborted', '', { cause });
    if (timeout?.aborted)
      return new HubNetworkError(endpoint, 'timeout', `no answer within ${timeoutMs} ms`, { cause });
    const detail = cause instanceof Error ? cause.message : String(cause);
    return new HubNetworkError(endpoint, 'network', redact(detail) || 'fetch failed', { cause });
  }

  async function attempt(spec: RequestSpec<z.ZodType>, endpoint: string) {
    const headers = authHeaders('application/json');
    let body: string | undefined;
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.body);
    }
    const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signals = [spec.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const url = `${baseUrl}${spec.path}${toQueryString(spec.query)}`;
    try {
      const response = await doFetch(url, { method: spec.method, headers, body, signal });
      // Read inside the try: a timeout or abort can also land while the body streams in.
      const text = await response.text();
      return { response, text };
    } catch (cause) {
      throw fetchFailure(endpoint, cause, spec.signal, timeout);
    }
  }

  function apiError(
    spec: { method: HttpMethod; path: string },
    response: Response,
    text: string,
    waitMs: number | null,
  ) {
    return new HubApiError({
      status: response.status,
      message: redact(errorMessage(response, text)),
      method: spec.method,
      path: spec.path,
      requestId: response.headers.get('x-request-id'),
      retryAfterMs: waitMs,
    });
  }

  async function request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<HubResponse<z.output<S>>> {
    const endpoint = `${spec.method} ${spec.path}`;
    for (let retry = 0; ; retry++) {
      if (spec.signal?.aborted) throw new HubNetworkError(endpoint, 'aborted', '');
      const { response, text } = await attempt(spec, endpoint);
      if (response.ok) return { data: parseResponse(spec.response, text, endpoint), headers: response.headers, text };
      if (response.status !== 429) throw apiError(spec, response, text, null);
      const asked = retryAfterMs(response.headers);
      const wait = asked ?? BACKOFF_BASE_MS * 2 ** retry;
      if (retry >= maxRetries || wait > maxRetryDelayMs) throw apiError(spec, response, text, asked);
      await sleep(wait, spec.signal, endpoint);
    }
  }

  /**
   * Opens a streamed GET (server-sent events): the timeout covers the wait for the answer's
   * headers only, the body then streams for as long as the hub keeps it open or `signal` allows.
   */
  async function stream(spec: StreamSpec): Promise<ReadableStream<Uint8Array>> {
    const endpoint = `GET ${spec.path}`;
    const connect = new AbortController();
    const timer = timeoutMs > 0 ? setTimeout(() => connect.abort(), timeoutMs) : undefined;
    const signal = spec.signal ? AbortSignal.any([spec.signal, connect.signal]) : connect.signal;
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${spec.path}${toQueryString(spec.query)}`, {
        method: 'GET',
        headers: authHeaders('text/event-stream'),
        signal,
      });
    } catch (cause) {
      throw fetchFailure(endpoint, cause, spec.signal, connect.signal);
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok)
      throw apiError({ method: 'GET', path: spec.path }, response, await response.text().catch(() => ''), null);
    if (!response.body) throw new HubSchemaError(endpoint, [{ path: '', message: 'the answer has no body to stream' }]);
    return response.body;
  }

  /** The next page a `Link: <...>; rel="next"` header points at, as a path on this hub; never another origin (the token goes with it). */
  function nextPagePath(headers: Headers): string | undefined {
    const link = headers.get('link');
    const target = link && /<([^>]+)>\s*;[^,]*\brel="?next"?/i.exec(link)?.[1];
    if (!target) return undefined;
    const url = new URL(target, `${baseUrl}/`);
    const full = `${url.origin}${url.pathname}`;
    return full === baseUrl || full.startsWith(`${baseUrl}/`)
      ? `${full.slice(baseUrl.length)}${url.search}`
      : undefined;
  }

  return { request, stream, nextPagePath };
}

/** Parses a 2xx body with the tolerant reader (see tolerantResponse); anything still off-schema throws HubSchemaError. */
function parseResponse<S extends z.ZodType>(schema: S, text: string, endpoint: string): z.output<S> {
  let json: unknown;
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw new HubSchemaError(endpoint, [{ path: '', message: 'response body is not JSON' }]);
    }
  }
  const result = tolerantParse(schema, json);
  if (!result.success)
    throw new HubSchemaError(endpoint, toIssues(result.error), { raw: json, fields: readableFields(schema, json) });
  return result.data;
}

function errorMessage(response: Response, text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const body = JSON.parse(trimmed) as unknown;
      if (body && typeof body === 'object') {
        const { error, message } = body as { error?: unknown; message?: unknown };
        if (typeof error === 'string' && error.trim()) return error;
        if (typeof message === 'string' && message.trim()) return message;
      }
    } catch {
      // fall through to the header
    }
  }
  const header = response.headers.get('x-error-message');
  if (header?.trim()) return header;
  if (trimmed && trimmed.length <= 300 && !trimmed.startsWith('<') && !trimmed.startsWith('{')) return trimmed;
  return response.statusText || `HTTP ${response.status}`;
}

function sleep(ms: number, signal: AbortSignal | undefined, endpoint: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ms <= 0) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      reject(new HubNetworkError(endpoint, 'aborted', 'while waiting to retry after 429'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
