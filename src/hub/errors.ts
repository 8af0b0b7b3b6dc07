import { TOKEN_PREFIX } from './schemas/token-revoke.ts';

/** One broken spot in a payload: where (`a.b[0]`) and why. */
export interface HubIssue {
  path: string;
  message: string;
}

const RAW_TOKEN = new RegExp(`\\b${TOKEN_PREFIX}_[A-Za-z0-9_-]+`, 'g');

/**
 * Error text can echo what was sent (a token being revoked, a server reflecting the
 * Authorization header), so every message passes through here before it is shown or logged.
 */
export function redactSecrets(text: string, token?: string): string {
  let out = token && token.length >= 4 ? text.split(token).join('[redacted]') : text;
  out = out.replace(RAW_TOKEN, `${TOKEN_PREFIX}_[redacted]`);
  return out.replace(/(Bearer\s+)\S+/gi, '$1[redacted]');
}

export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** Base class: `instanceof HubError` catches everything the client throws. */
export class HubError extends Error {
  /** e.g. `GET /api/notifications` (never the query string). */
  readonly endpoint: string;
  constructor(message: string, endpoint: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.endpoint = endpoint;
  }
}

export interface HubApiErrorInit {
  status: number;
  message: string;
  method: string;
  path: string;
  requestId?: string | null;
  /** Milliseconds the hub asked us to wait (429), when it said. */
  retryAfterMs?: number | null;
}

/** The hub answered with a non-2xx status. */
export class HubApiError extends HubError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | null;
  /** Field the hub's message names (`url`, `job.flavor`), when it names one. */
  readonly field: string | null;
  readonly retryAfterMs: number | null;
  /** The hub's message alone, without status and endpoint decoration. */
  readonly hubMessage: string;

  constructor(init: HubApiErrorInit) {
    const endpoint = `${init.method} ${init.path}`;
    const ref = init.requestId ? ` (request id ${init.requestId})` : '';
    super(`${endpoint} failed with ${init.status}: ${init.message}${ref}`, endpoint);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId ?? null;
    this.hubMessage = init.message;
    this.field = fieldFromMessage(init.message);
    this.retryAfterMs = init.retryAfterMs ?? null;
  }

  get isAuth(): boolean {
    return this.status === 401 || this.status === 403;
  }
  get isNotFound(): boolean {
    return this.status === 404;
  }
}

/** Statuses with which a hub says it has no such endpoint (unknown route, method not allowed, not implemented). */
const NOT_EXPOSED_STATUSES = new Set([404, 405, 501]);

/**
 * A read (or write) that only the mock hub serves, answered as an unknown route: this hub does not
 * expose it (the real hub has only the spec's endpoints for it). Pages say so in one line and
 * offer what works without it. Still a HubApiError with the hub's status and message.
 */
export class HubEndpointNotExposedError extends HubApiError {
  /** What the page could not get, for people: "the current notification settings". */
  readonly what: string;
  constructor(cause: HubApiError, what: string) {
    super({
      status: cause.status,
      message: cause.hubMessage,
      method: cause.method,
      path: cause.path,
      requestId: cause.requestId,
      retryAfterMs: cause.retryAfterMs,
    });
    this.what = what;
  }

  /** `error` as a not-exposed error when it is the hub saying it has no such endpoint. */
  static from(error: unknown, what: string): unknown {
    return error instanceof HubApiError &&
      !(error instanceof HubEndpointNotExposedError) &&
      NOT_EXPOSED_STATUSES.has(error.status)
      ? new HubEndpointNotExposedError(error, what)
      : error;
  }
}

/** The one test pages use: the hub does not expose this endpoint (see HubEndpointNotExposedError). */
export function isEndpointNotExposed(error: unknown): error is HubEndpointNotExposedError {
  return error instanceof HubEndpointNotExposedError;
}

/** What a detail page shows of an answer it could not read: the JSON as sent, and the fields that did read. */
export interface UnreadableAnswer {
  raw: unknown;
  fields: Record<string, unknown>;
}

/** A 2xx response whose body does not match its schema. */
export class HubSchemaError extends HubError {
  readonly issues: HubIssue[];
  /** The body and its readable fields, when it was JSON. */
  readonly answer: UnreadableAnswer | undefined;
  constructor(endpoint: string, issues: HubIssue[], answer?: UnreadableAnswer) {
    const shown = issues
      .slice(0, 3)
      .map((i) => `${i.path || '(root)'}: ${i.message}`)
      .join('; ');
    const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : '';
    super(`Unexpected response from ${endpoint}: ${shown}${more}`, endpoint);
    this.issues = issues;
    this.answer = answer;
  }
}

/** The request was invalid before it left: nothing was sent. */
export class HubRequestError extends HubError {
  readonly issues: HubIssue[];
  /** First offending field (`job.timeoutSeconds`, `webhookId`). */
  readonly field: string | null;
  constructor(endpoint: string, issues: HubIssue[]) {
    const first = issues[0];
    const text = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'invalid request';
    super(`Invalid request for ${endpoint}: ${text}`, endpoint);
    this.issues = issues;
    this.field = first?.path || null;
  }
}

export type HubNetworkFailure = 'network' | 'timeout' | 'aborted';

/** No response: the connection failed, timed out, or the caller aborted. */
export class HubNetworkError extends HubError {
  readonly kind: HubNetworkFailure;
  constructor(endpoint: string, kind: HubNetworkFailure, detail: string, options?: ErrorOptions) {
    const what = kind === 'timeout' ? 'timed out' : kind === 'aborted' ? 'was aborted' : 'could not reach the hub';
    super(`${endpoint} ${what}${detail ? `: ${detail}` : ''}`, endpoint, options);
    this.kind = kind;
  }
}

const FIELD_PREFIX = /^([A-Za-z_$][\w$]*(?:(?:\.[A-Za-z_$][\w$]*)|\[\d+\])*)\s*:\s/;
const FIELD_NAMED = /\b(?:field|parameter|property|key)\s+["'`]?([A-Za-z_$][\w$.[\]]*)["'`]?/i;
const FIELD_QUOTED = /^["'`]([A-Za-z_$][\w$.[\]]*)["'`]\s/;
const UNKNOWN_FIELD = /unknown fields?\s+["'`]([^"'`]+)["'`]/i;
/** The mock hub says where a field lives (`body.url`); callers know fields by their own name. */
const LOCATION = /^(?:body|query|path|params)(?:\.|(?=\[)|$)/;

/**
 * Hub messages name the field as `field: why`, `"field" why` or `... field x ...`; the mock hub
 * prefixes the location (`body.job.flavor: ...`, `body: unknown field "foo"`).
 */
export function fieldFromMessage(message: string): string | null {
  const prefixed = FIELD_PREFIX.exec(message);
  if (prefixed) {
    const located = LOCATION.test(prefixed[1]!);
    const field = prefixed[1]!.replace(LOCATION, '');
    const unknown = UNKNOWN_FIELD.exec(message)?.[1];
    if (unknown) return field ? `${field}.${unknown}` : unknown;
    if (field) return field;
    if (located) return null;
  }
  const m = FIELD_QUOTED.exec(message) ?? FIELD_NAMED.exec(message);
  return m?.[1] ?? null;
}
