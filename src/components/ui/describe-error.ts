import { HubApiError, HubNetworkError, HubRequestError, HubSchemaError } from '../../hub/errors.ts';

export interface ErrorDescription {
  message: string;
  status?: number;
  requestId?: string;
}

/**
 * Turns any thrown value into text for people. Hub errors are already redacted by the client
 * (no token in them); the status and request id are shown apart, so the message is the hub's own.
 */
export function describeError(error: unknown): ErrorDescription {
  if (error instanceof HubApiError) {
    return {
      message: error.hubMessage || error.message,
      status: error.status,
      requestId: error.requestId ?? undefined,
    };
  }
  if (error instanceof HubSchemaError) return { message: `The hub answered in an unexpected shape. ${error.message}` };
  if (error instanceof HubNetworkError) {
    const why =
      error.kind === 'timeout'
        ? 'The hub did not answer in time.'
        : error.kind === 'aborted'
          ? 'The request was cancelled.'
          : 'The hub could not be reached.';
    return { message: `${why} ${error.message}` };
  }
  if (error instanceof HubRequestError) return { message: error.message };
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof HubApiError && error.status === 401;
}

export function isForbidden(error: unknown): boolean {
  return error instanceof HubApiError && error.status === 403;
}
