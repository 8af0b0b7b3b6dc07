import {
  HubApiError,
  HubError,
  HubNetworkError,
  HubRequestError,
  HubSchemaError,
  type HubIssue,
  type HubNetworkFailure,
} from '../../hub/errors.ts';

/** Errors cross postMessage as plain data; classes are rebuilt so `instanceof` checks still work. */
export type TransferredError =
  | {
      kind: 'api';
      message: string;
      status: number;
      hubMessage: string;
      method: string;
      path: string;
      requestId: string | null;
      retryAfterMs: number | null;
    }
  | { kind: 'schema' | 'request'; message: string; endpoint: string; issues: HubIssue[] }
  | { kind: 'network'; message: string; endpoint: string; failure: HubNetworkFailure }
  | { kind: 'other'; message: string };

export function toTransferred(err: unknown): TransferredError {
  if (err instanceof HubApiError) {
    return {
      kind: 'api',
      message: err.message,
      status: err.status,
      hubMessage: err.hubMessage,
      method: err.method,
      path: err.path,
      requestId: err.requestId,
      retryAfterMs: err.retryAfterMs,
    };
  }
  if (err instanceof HubSchemaError)
    return { kind: 'schema', message: err.message, endpoint: err.endpoint, issues: err.issues };
  if (err instanceof HubRequestError)
    return { kind: 'request', message: err.message, endpoint: err.endpoint, issues: err.issues };
  if (err instanceof HubNetworkError)
    return { kind: 'network', message: err.message, endpoint: err.endpoint, failure: err.kind };
  return { kind: 'other', message: err instanceof Error ? err.message : String(err) };
}

export function fromTransferred(t: TransferredError): Error {
  let err: Error;
  switch (t.kind) {
    case 'api':
      err = new HubApiError({
        status: t.status,
        message: t.hubMessage,
        method: t.method,
        path: t.path,
        requestId: t.requestId,
        retryAfterMs: t.retryAfterMs,
      });
      break;
    case 'schema':
      err = new HubSchemaError(t.endpoint, t.issues);
      break;
    case 'request':
      err = new HubRequestError(t.endpoint, t.issues);
      break;
    case 'network':
      err = new HubNetworkError(t.endpoint, t.failure, '');
      break;
    default:
      err = new Error(t.message);
  }
  if (err instanceof HubError) err.message = t.message;
  return err;
}
